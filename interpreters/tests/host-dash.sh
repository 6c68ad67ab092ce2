#!/bin/sh
# trusted-dash on the host kernel: 'dash FILE', '. FILE', stdin and -c.
# The verdicts expected are AT_EXECVE_CHECK's (mainline >= 6.14): on a
# kernel without it (Debian 12's 6.1, or the trustfor kernel, whose
# trusted_for verdicts tests/vm/cases/interp-dash.sh checks), those checks
# are counted as skipped with the reason; what holds on every kernel (a
# trusted script runs, dash's own errors, the fallback rule when the kernel
# cannot answer) runs everywhere.
SUITE=interp-dash-host
TF_TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TF_TOP/interpreters/tests/lib.sh"
. "$TF_TOP/interpreters/tests/secbits-matrix.sh"

restrict_file_env

d() { $CLEANENV "$DASH" "$@"; }

t_eq "libtrustedfor uses what the kernel offers first" "$KERNEL_DEFAULT" \
	"$("$VERDICT" --backend)"

printf 'echo "script ran $1"\n' > "$X/ok.sh"; chmod 755 "$X/ok.sh"
cp "$X/ok.sh" "$NX/ok.sh"
cp "$X/ok.sh" "$X/nox.sh"; chmod 644 "$X/nox.sh"
printf 'SOURCED=yes\n' > "$X/lib.sh"; chmod 755 "$X/lib.sh"
cp "$X/lib.sh" "$NX/lib.sh"
cp "$X/lib.sh" "$X/nolib.sh"; chmod 644 "$X/nolib.sh"
# trusted scripts (exec mount, 755: allowed by every kernel and policy)
printf '. "$1"\necho "sourced=$SOURCED"\n' > "$X/src.sh"; chmod 755 "$X/src.sh"
printf 'echo before\n. "$1"\necho after\n' > "$X/src2.sh"; chmod 755 "$X/src2.sh"
printf 'command . "$1"\necho "status=$? sourced=$SOURCED"\n' > "$X/csrc.sh"
chmod 755 "$X/csrc.sh"
printf '. lib.sh\necho "sourced=$SOURCED"\n' > "$X/psrc.sh"; chmod 755 "$X/psrc.sh"

# --- on every kernel -------------------------------------------------------
run d "$X/ok.sh" arg
expect_ran "trusted script runs with its arguments" "script ran arg"
run d "$X/missing.sh"
t_eq "missing script: dash's usual status 2" 2 "$rc"
run d "$X/src.sh" "$X/lib.sh"
expect_ran ". trusted file" "sourced=yes"
run $CLEANENV PATH="$X:/usr/bin:/bin" "$DASH" "$X/psrc.sh"
expect_ran ". found in PATH, trusted" "sourced=yes"
run sh -c "$CLEANENV '$DASH' -s x < '$X/ok.sh'"
expect_ran "stdin redirected from a trusted file" "script ran x"

# --- AT_EXECVE_CHECK's verdicts ---------------------------------------------
needs execve_check "$XC_ONLY"
kernel "script on exec mount, mode 755" "$X/ok.sh" allow
kernel "script on noexec mount" "$NX/ok.sh" deny
run d "$NX/ok.sh" arg
expect_denied "script on noexec mount" "$NX/ok.sh" "on a noexec mount"
t_eq "script on noexec mount: nothing ran" "" "$out"
# A hostile file name (ESC, RLO) is shown escaped in the refusal.
hostile="$NX/$(printf 'h\033[2Jx\342\200\256.sh')"
cp "$NX/ok.sh" "$hostile"
run d "$hostile"
t_eq "hostile name: exit status" 126 "$rc"
t_has "hostile name: shown escaped" 'h\x1b[2Jx\xe2\x80\xae.sh: refused to interpret' "$err"

kernel "script without x bit" "$X/nox.sh" deny
run d "$X/nox.sh"
expect_denied "script without x bit" "$X/nox.sh" "no execute permission"

kernel ". file on noexec mount" "$NX/lib.sh" deny
run d "$X/src2.sh" "$NX/lib.sh"
expect_denied ". file on noexec mount" "$NX/lib.sh" "on a noexec mount"
t_eq ". denied: special built-in error ends the shell" "before" "$out"

kernel ". file without x bit" "$X/nolib.sh" deny
run d "$X/src.sh" "$X/nolib.sh"
expect_denied ". file without x bit" "$X/nolib.sh" "no execute permission"

run d "$X/csrc.sh" "$X/nolib.sh"
t_eq "command . untrusted: shell goes on" 0 "$rc"
t_eq "command . untrusted: status 126, not sourced" "status=126 sourced=" "$out"
t_has "command . untrusted: error names the file" \
	"$X/nolib.sh: refused to interpret" "$err"

# . searches PATH for a name without a slash
run $CLEANENV PATH="$NX:/usr/bin:/bin" "$DASH" "$X/psrc.sh"
expect_denied ". found in PATH on a noexec mount" "$NX/lib.sh"

# a trusted script sourcing an untrusted file
printf '. "%s"\necho "not reached"\n' "$X/nolib.sh" > "$X/outer.sh"
chmod 755 "$X/outer.sh"
run d "$X/outer.sh"
expect_denied "trusted script sources untrusted file" "$X/nolib.sh"
t_eq "trusted script sourcing untrusted file: stops there" "" "$out"

# a file on stdin is interactive input, which SECBIT_EXEC_DENY_INTERACTIVE
# governs, not SECBIT_EXEC_RESTRICT_FILE (check_exec.rst)
run sh -c "$CLEANENV '$DASH' -s n < '$NX/ok.sh'"
expect_stdin_file "stdin redirected from a noexec file" 1 0 "script ran n" \
	"on a noexec mount"
run sh -c "$CLEANENV '$DASH' -s n < '$X/nox.sh'"
expect_stdin_file "stdin redirected from a file without x bit" 0 1 \
	"script ran n" "no execute permission"
run sh -c "$CLEANENV '$TFRUN' --deny-interactive -- '$DASH' < '$NX/ok.sh'"
expect_denied "stdin from a noexec file, SECBIT_EXEC_DENY_INTERACTIVE set" \
	"<stdin>" "on a noexec mount (AT_EXECVE_CHECK, SECBIT_EXEC_DENY_INTERACTIVE is set)"
run sh -c "$CLEANENV '$TFRUN' --deny-interactive -- '$DASH' -s d < '$X/ok.sh'"
expect_ran "stdin from an executable file, SECBIT_EXEC_DENY_INTERACTIVE set" \
	"script ran d"

# code that is not a file (piped stdin, -c): mainline's rule is the
# securebit SECBIT_EXEC_DENY_INTERACTIVE, inherited, here clear or set
run sh -c "cat '$X/ok.sh' | $CLEANENV '$DASH' -s y"
expect_nonfile "piped stdin, SECBIT_EXEC_DENY_INTERACTIVE clear" "<stdin>" "script ran y"
run sh -c "cat '$X/ok.sh' | $CLEANENV '$TFRUN' --deny-interactive -- '$DASH' -s y"
expect_denied "piped stdin, SECBIT_EXEC_DENY_INTERACTIVE set" "<stdin>" \
	"SECBIT_EXEC_DENY_INTERACTIVE"
t_eq "piped stdin refused: nothing ran" "" "$out"
run d -c 'echo cmd'
expect_nonfile "-c, SECBIT_EXEC_DENY_INTERACTIVE clear" -c "cmd"
run $CLEANENV "$TFRUN" --deny-interactive -- "$DASH" -c 'echo cmd'
expect_denied "-c, SECBIT_EXEC_DENY_INTERACTIVE set" "-c" \
	"SECBIT_EXEC_DENY_INTERACTIVE"
run $CLEANENV "$TFRUN" --deny-interactive -- "$DASH" "$X/ok.sh" f
expect_ran "script file under SECBIT_EXEC_DENY_INTERACTIVE" "script ran f"
end_needs

# --- kernel cannot answer: fallback rule (any kernel) ------------------------
run $CLEANENV "$TFRUN" --enosys -- "$VERDICT" "$X/nox.sh"
t_eq "seccomp and a tmpfs over /proc/sys/fs hide the kernel's interfaces" \
	"error ENOSYS" "$(printf '%s\n' "$out" | cut -f1,2 | tr '\t' ' ')"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" "$X/nox.sh" fb
expect_ran "fallback: script without x bit allowed" "script ran fb"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" "$NX/ok.sh"
expect_denied "fallback: script on noexec mount denied" "$NX/ok.sh" \
	"fallback rule"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" "$X/src.sh" "$NX/lib.sh"
expect_denied "fallback: . file on noexec mount denied" "$NX/lib.sh" \
	"fallback rule"
run sh -c "echo 'echo piped' | $CLEANENV '$TFRUN' --enosys -- '$DASH'"
expect_ran "fallback: piped stdin allowed" "piped"
run $CLEANENV "$TFRUN" --enosys -- "$DASH" -c 'echo cmd'
expect_ran "fallback: -c allowed" "cmd"

# --- a kernel with trusted_for behind a seccomp filter: fail closed ----------
# The filter alone (fs.trust_policy still there): a container profile that
# does not know the system call, not a kernel that cannot answer; the
# library says EPERM, and the interpreter refuses instead of applying the
# fallback rule.
needs trusted_for "needs trusted_for(2) (the trustfor kernel)"
run $BASEENV "$TFRUN" --filter-only -- "$VERDICT" "$X/ok.sh"
t_eq "filtered trusted_for: the library fails closed" \
	"deny EPERM" "$(printf '%s\n' "$out" | cut -f1,2 | tr '\t' ' ')"
run $BASEENV "$TFRUN" --filter-only -- "$DASH" "$X/ok.sh"
expect_denied "filtered trusted_for: a trusted script is refused" "$X/ok.sh" \
	"cannot check it"
run $BASEENV "$TFRUN" --filter-only -- "$DASH" -c 'echo matrix ran'
expect_denied "filtered trusted_for: -c is refused" "-c" "cannot check it"
end_needs

# --- the exec securebits, every combination (secbits-matrix.sh) --------------
M_INTERP="$DASH"
M_EXT=.sh
M_CODE='echo matrix ran'
M_CMD='echo matrix ran'
secbits_matrix

needs_done
t_done "$SUITE"
