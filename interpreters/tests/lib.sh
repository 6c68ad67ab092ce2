# shellcheck shell=sh
# Shared setup for the interpreter tests (host-*.sh here and
# tests/vm/cases/interp-*.sh); source it after setting SUITE and TF_TOP.
# Runs the test in a private mount namespace on the host (root only; the
# test VM is private already) with
#   $X  a tmpfs mounted exec     $NX  a tmpfs mounted noexec
# (unmounted at exit) and gives run/expect helpers on top of
# tests/lib/assert.sh.  TF_TOP: the repository root, set by the sourcing
# script.
TOP=${TF_TOP:?set TF_TOP to the repository root before sourcing lib.sh}
. "$TOP/tests/lib/assert.sh"
. "$TOP/tests/lib/build.sh"
. "$TOP/tests/lib/mountns.sh"
. "$TOP/tests/lib/fixture.sh"
. "$TOP/tests/lib/run.sh"
B=${TF_BUILD:-$TOP/build/user/interpreters}
PY=$B/trusted-python3
DASH=$B/trusted-dash
# the test probe (tests/probe: make -C tests/probe)
VERDICT=$(dirname "$B")/tests/probe/probe
TFRUN=$B/tests/tf-run

if [ "$(id -u)" != 0 ]; then
	echo "# $SUITE: needs root (mount namespace and tmpfs mounts)" >&2
	t_fail "$SUITE runs as root"
	t_done "$SUITE"
	exit 1
fi
need_build "$SUITE" "make -C interpreters all test-helpers" \
	"$PY" "$DASH" "$VERDICT" "$TFRUN"
# What the running kernel offers, probed without libtrustedfor (probe
# --kernel): "trusted_for", "execve_check" (AT_EXECVE_CHECK), both
# ("trusted_for execve_check": the trustfor 6.1 kernel since issue 11) or
# "none".  KERNEL_DEFAULT is the first, the one libtrustedfor uses by
# default.
KERNEL_OFFERS=$("$VERDICT" --kernel)
KERNEL_DEFAULT=${KERNEL_OFFERS%% *}
# offers API: the kernel has API (trusted_for, execve_check)
offers() {
	case " $KERNEL_OFFERS " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}
# kv ARGS...: the probe's verdict word (allow, deny, error) a FILE, asked
# through KV_API (a needs block sets it to the interface whose verdicts its
# checks expect; libtrustedfor's choice elsewhere)
KV_API=
kv() { "$VERDICT" ${KV_API:+--api "$KV_API"} "$@" | cut -f1; }

# The test VM (tests/vm/run) is already private and disposable.
[ -n "$TRUSTFOR_VM" ] || mountns_reexec sh "$0" "$@"

fx_tmpdir /tmp/tf-interp.XXXXXX
T=$FX_DIR
X=$T/x
NX=$T/nx
fx_tmpfs "$X" exec,mode=755 tf-exec
fx_tmpfs "$NX" noexec,mode=755 tf-noexec
run_files "$T"

# A clean environment for the interpreters (no PYTHONDONTWRITEBYTECODE etc.
# from the caller), keeping the sanitizer settings of make check.
CLEANENV="env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME=$T"
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
	eval "val=\${$v:-}"
	[ -z "$val" ] || CLEANENV="$CLEANENV $v=$val"
done

# --- checks this kernel cannot answer: counted as skipped, with the reason ---
# needs API REASON ... end_needs: the checks in between expect the
# verdicts of API.  "trusted_for": the kernel has trusted_for(2).
# "execve_check": the verdicts of AT_EXECVE_CHECK, enforced (noexec
# mounts, files without an x bit, anything not a regular file), which
# restrict_file_env (secbits-matrix.sh) says how this kernel gives, in
# XC_API: AT_EXECVE_CHECK itself under SECBIT_EXEC_RESTRICT_FILE, or
# trusted_for(2) under fs.trust_policy 3.  On a kernel that cannot, every
# one of them is counted as skipped (same number of checks on every host)
# and nothing is run; needs_done, before t_done, prints a line
# "SKIPPED <suite>: REASON (N checks)" for each reason, with its own count
# (tests/skips bounds each reason's).
SKIPPING=
XC_API=
needs() {
	KV_API=
	case $1 in
	execve_check) KV_API=$XC_API ;;
	*) ! offers "$1" || KV_API=$1 ;;
	esac
	if [ -n "$KV_API" ]; then
		SKIPPING=
	else
		SKIPPING="$2 (this kernel offers: $KERNEL_OFFERS)"
	fi
}
end_needs() { SKIPPING=; KV_API=; }
# SKIP_REASONS: the reason of each skipped check, one a line
SKIP_REASONS=
needs_done() {
	[ -z "$SKIP_REASONS" ] ||
		printf '%s' "$SKIP_REASONS" | awk -v suite="$SUITE" '
			!($0 in n) { order[++k] = $0 }
			{ n[$0]++ }
			END { for (i = 1; i <= k; i++)
				printf "SKIPPED %s: %s (%d checks)\n", suite, order[i], n[order[i]] }'
}
# one check skipped: as t_skip, but the reason is printed once by needs_done
skip_one() {
	SKIP_REASONS="$SKIP_REASONS$SKIPPING
"
	T_SKIP=$((T_SKIP + 1))
	printf 'ok - %s # SKIP\n' "$1"
}
# t_eq and t_run of assert.sh, counted as skipped inside a needs block
# that this kernel cannot answer
t_eq() {
	if [ -n "$SKIPPING" ]; then skip_one "$1"
	elif [ "$2" = "$3" ]; then t_ok "$1"
	else t_fail "$1: expected '$2', got '$3'"; fi
}
t_run() {
	what=$1; shift
	if [ -n "$SKIPPING" ]; then skip_one "$what"
	elif "$@"; then t_ok "$what"
	else t_fail "$what (exit $?)"; fi
}

# run CMD...: sets $rc, $out (stdout) and $err (stderr) (tests/lib/run.sh);
# runs nothing when the checks are being skipped
run() {
	if [ -n "$SKIPPING" ]; then
		rc=; out=; err=
		return
	fi
	run_capture "$@"
}

# t_has WHAT NEEDLE HAYSTACK: passes when HAYSTACK contains NEEDLE
t_has() {
	[ -z "$SKIPPING" ] || { skip_one "$1"; return; }
	case $3 in
	*"$2"*) t_ok "$1" ;;
	*) t_fail "$1: '$2' not in '$3'" ;;
	esac
}

# kernel WHAT FILE EXPECTED: the kernel's own verdict (the probe) for FILE
kernel() {
	if [ -n "$SKIPPING" ]; then skip_one "$1: kernel verdict"; return; fi
	t_eq "$1: kernel verdict" "$3" "$(kv "$2" 2>&1)"
}

# --- verdicts compared with the kernel's, and the kernel's with the model ---
# $P: the policy bits the kernel applies: fs.trust_policy under trusted_for;
# AT_EXECVE_CHECK applies both (noexec mounts, execute permission), so the
# host suites set P=3 there.  $WHO names the interpreter in messages.

# iv FILE EXPECTED_OUT: the interpreter's verdict from the last run
# ($rc, $out, $err): ran with the expected output, or refused with 126 and
# one line naming the file.
iv() {
	if [ "$rc" = 0 ] && [ "$out" = "$2" ]; then
		echo allow
	elif [ "$rc" = 126 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	     case $err in *"$1: refused to interpret"*) true ;; *) false ;; esac; then
		echo deny
	else
		echo "unexpected(rc=$rc out=$out err=$err)"
	fi
}
# same WHAT FILE EXPECTED_OUT: the interpreter's verdict == kernel's on FILE
same() {
	if [ -n "$SKIPPING" ]; then skip_one "policy $P: $1"; return; fi
	k=$(kv "$2")
	t_eq "policy $P: $1: $WHO agrees with kernel ($k)" "$k" "$(iv "$2" "$3")"
}
# model NOEXEC_MOUNT NO_X [NOT_REGULAR]: the verdict the policy bits give
# (fs.trust_policy / trusted_for(2)): bit 0 refuses files on noexec mounts,
# bit 1 files without an execute bit (root: CAP_DAC_OVERRIDE needs one),
# any bit anything that is not a regular file (pipes, terminals, devices).
model() {
	if [ "$1" = 1 ] && [ $((P & 1)) = 1 ]; then echo deny
	elif [ "$2" = 1 ] && [ $((P & 2)) = 2 ]; then echo deny
	elif [ "${3:-0}" = 1 ] && [ "$P" != 0 ]; then echo deny
	else echo allow; fi
}
# stdin_model NOEXEC_MOUNT NO_X: the verdict on a regular file read from
# stdin with SECBIT_EXEC_DENY_INTERACTIVE clear.  That is interactive input
# (check_exec.rst), which SECBIT_EXEC_RESTRICT_FILE does not govern: only
# trusted_for(2), where the kernel has it, refuses it, as model says for
# the running fs.trust_policy.
stdin_model() {
	if [ -e /proc/sys/fs/trust_policy ]; then
		P=$(cat /proc/sys/fs/trust_policy) model "$1" "$2"
	else
		echo allow
	fi
}
# expect_stdin_file WHAT NOEXEC_MOUNT NO_X OUTPUT REASON: the last run, of
# such a file on stdin, ran with OUTPUT, or was refused by trusted_for(2)
# with REASON, as stdin_model says
expect_stdin_file() {
	if [ "$(stdin_model "$2" "$3")" = deny ]; then
		expect_denied "$1, refused by fs.trust_policy" "<stdin>" \
			"$5 (trusted_for)"
	else
		expect_ran "$1, interactive input: SECBIT_EXEC_RESTRICT_FILE does not apply" "$4"
	fi
}
# kexp WHAT FILE NOEXEC_MOUNT NO_X: the kernel follows the policy bits
kexp() {
	if [ -n "$SKIPPING" ]; then skip_one "policy $P: $1: kernel verdict per policy bits"; return; fi
	t_eq "policy $P: $1: kernel verdict per policy bits" \
		"$(model "$3" "$4")" "$(kv "$2")"
}

# expect_denied WHAT FILE [REASON]: last run was refused because of FILE:
# status 126, one stderr line naming FILE (and REASON), nothing run
expect_denied() {
	t_eq "$1: exit status" 126 "$rc"
	t_eq "$1: one-line error" 1 "$(printf '%s\n' "$err" | wc -l)"
	t_has "$1: error names the file" "$2: refused to interpret" "$err"
	[ -z "$3" ] || t_has "$1: error gives the reason" "$3" "$err"
}

# expect_ran WHAT EXPECTED_OUTPUT: last run succeeded with that output
expect_ran() {
	t_eq "$1: exit status" 0 "$rc"
	t_eq "$1: output" "$2" "$out"
	[ -z "$err" ] || echo "# stderr: $err"
}
