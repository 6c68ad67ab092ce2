# shellcheck shell=bash
# The interpreter-start workload of issue 26, sourced by
# bench/trusttop-overhead.sh and bench/trusttop-progcost.sh (MODE=interp):
# trusted-python3 and trusted-dash, in turn, each running a small script
# from a checked file.
# interp_setup NAME BUILD DIR: PY and DASH (BUILD/interpreters), the
#   scripts DIR/s.py and DIR/s.sh, and the checks of a file that one start
#   of each makes, counted by strace (execveat with AT_EXECVE_CHECK, and
#   trusted_for(2), syscall 451, unnamed there; not the feature probes on
#   descriptor -1, EBADF): per_py, per_sh, per_start.  Exits 2 with a line
#   naming NAME when something is missing.
# interp_loop N DIR: N starts of each; their output ("py", "sh") on stdout.
# interp_out_ok FILE N: FILE holds the output of interp_loop N, and
#   nothing else; else prints what it holds ("3 py, 2 sh") and fails.
# children_cpu FILE...: the CPU seconds (user + system) of the children in
#   the output of bash's times in each FILE (its second line).

interp_setup() {
	local name=$1
	PY=$2/interpreters/trusted-python3 DASH=$2/interpreters/trusted-dash
	[ -x "$PY" ] && [ -x "$DASH" ] || {
		echo "$name: no $PY or $DASH: run 'make -C interpreters' first" >&2; exit 2; }
	command -v strace > /dev/null || {
		echo "$name: MODE=interp counts the checks with strace (apt-get install strace)" >&2; exit 2; }
	printf 'print("py")\n' > "$3/s.py"; printf 'echo sh\n' > "$3/s.sh"
	chmod 755 "$3/s.py" "$3/s.sh"
	per_py=$(interp_checks "$3" "$PY" "$3/s.py") &&
		per_sh=$(interp_checks "$3" "$DASH" "$3/s.sh") || {
		echo "$name: an interpreter failed under strace" >&2; exit 2; }
	per_start=$((per_py + per_sh))
	[ "$per_start" -gt 0 ] || { echo "$name: strace saw no check" >&2; exit 2; }
}

# interp_checks DIR CMD...: the checks one start of CMD makes
interp_checks() {
	local d=$1
	shift
	strace -f -qq -o "$d/strace" "$@" > /dev/null 2>&1 || return 1
	grep -E '(execveat\(.*(AT_EXECVE_CHECK|0x10000)|syscall_0x1c3\()' "$d/strace" |
		grep -vc 'EBADF' || true
}

interp_loop() {
	local _
	for _ in $(seq "$1"); do "$PY" "$2/s.py"; "$DASH" "$2/s.sh"; done
}

interp_out_ok() {
	local got
	got=$(sort "$1" | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')
	[ "$got" = "$2 py, $2 sh" ] || { echo "$got"; return 1; }
}

children_cpu() {
	awk 'FNR == 2 { for (f = 1; f <= 2; f++) { split($f, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] } }
		END { printf "%.6f\n", t }' "$@"
}
