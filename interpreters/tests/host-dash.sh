#!/bin/sh
# trusted-dash on the host kernel (mainline AT_EXECVE_CHECK backend):
# 'dash FILE', '. FILE' and stdin against the kernel's verdict.
SUITE=interp-dash-host
TF_TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TF_TOP/interpreters/tests/lib.sh"

d() { $CLEANENV "$DASH" "$@"; }

t_eq "host kernel answers with AT_EXECVE_CHECK" execve_check \
	"$("$TFRUN" --backend)"

printf 'echo "script ran $1"\n' > "$X/ok.sh"; chmod 755 "$X/ok.sh"
cp "$X/ok.sh" "$NX/ok.sh"
cp "$X/ok.sh" "$X/nox.sh"; chmod 644 "$X/nox.sh"

# --- dash FILE ---------------------------------------------------------------
kernel "script on exec mount, mode 755" "$X/ok.sh" allow
run d "$X/ok.sh" arg
expect_ran "trusted script runs with its arguments" "script ran arg"

kernel "script on noexec mount" "$NX/ok.sh" deny
run d "$NX/ok.sh" arg
expect_denied "script on noexec mount" "$NX/ok.sh" "on a noexec mount"
t_eq "script on noexec mount: nothing ran" "" "$out"

kernel "script without x bit" "$X/nox.sh" deny
run d "$X/nox.sh"
expect_denied "script without x bit" "$X/nox.sh" "no execute permission"

run d "$X/missing.sh"
t_eq "missing script: dash's usual status 2" 2 "$rc"

# --- . FILE --------------------------------------------------------------------
printf 'SOURCED=yes\n' > "$X/lib.sh"; chmod 755 "$X/lib.sh"
cp "$X/lib.sh" "$NX/lib.sh"
cp "$X/lib.sh" "$X/nolib.sh"; chmod 644 "$X/nolib.sh"

run d -c ". '$X/lib.sh'; echo \"sourced=\$SOURCED\""
expect_ran ". trusted file" "sourced=yes"

kernel ". file on noexec mount" "$NX/lib.sh" deny
run d -c "echo before; . '$NX/lib.sh'; echo after"
expect_denied ". file on noexec mount" "$NX/lib.sh" "on a noexec mount"
t_eq ". denied: special built-in error ends the shell" "before" "$out"

kernel ". file without x bit" "$X/nolib.sh" deny
run d -c ". '$X/nolib.sh'; echo \"sourced=\$SOURCED\""
expect_denied ". file without x bit" "$X/nolib.sh" "no execute permission"

run d -c "command . '$X/nolib.sh'; echo \"status=\$? sourced=\$SOURCED\""
t_eq "command . untrusted: shell goes on" 0 "$rc"
t_eq "command . untrusted: status 126, not sourced" "status=126 sourced=" "$out"
t_has "command . untrusted: error names the file" \
	"$X/nolib.sh: refused to interpret" "$err"

# . searches PATH for a name without a slash
run $CLEANENV PATH="$NX:/usr/bin:/bin" "$DASH" -c '. lib.sh; echo sourced=$SOURCED'
expect_denied ". found in PATH on a noexec mount" "$NX/lib.sh"
run $CLEANENV PATH="$X:/usr/bin:/bin" "$DASH" -c '. lib.sh; echo sourced=$SOURCED'
expect_ran ". found in PATH, trusted" "sourced=yes"

# a trusted script sourcing an untrusted file
printf '. "%s"\necho "not reached"\n' "$X/nolib.sh" > "$X/outer.sh"
chmod 755 "$X/outer.sh"
run d "$X/outer.sh"
expect_denied "trusted script sources untrusted file" "$X/nolib.sh"
t_eq "trusted script sourcing untrusted file: stops there" "" "$out"

# --- stdin -------------------------------------------------------------------
run sh -c "$CLEANENV '$DASH' < '$NX/ok.sh'"
expect_denied "stdin redirected from a noexec file" "<stdin>" "on a noexec mount"
run sh -c "$CLEANENV '$DASH' -s x < '$X/ok.sh'"
expect_ran "stdin redirected from a trusted file" "script ran x"
run sh -c "cat '$NX/ok.sh' | $CLEANENV '$DASH' -s y"
expect_ran "piped stdin is not a file: not checked" "script ran y"

# --- kernel cannot answer: fallback rule ------------------------------------
run $CLEANENV "$TFRUN" --enosys -- "$VERDICT" "$X/nox.sh"
t_eq "seccomp hides AT_EXECVE_CHECK" "error:ENOSYS" "$out"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" "$X/nox.sh" fb
expect_ran "fallback: script without x bit allowed" "script ran fb"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" "$NX/ok.sh"
expect_denied "fallback: script on noexec mount denied" "$NX/ok.sh" \
	"fallback rule"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" -c ". '$NX/lib.sh'"
expect_denied "fallback: . file on noexec mount denied" "$NX/lib.sh" \
	"fallback rule"

t_done "$SUITE"
