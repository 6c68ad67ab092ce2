#!/bin/sh
# Host test: bad input and missing privileges/backends give one clear line
# on stderr and the documented exit status (trusttop.8, EXIT STATUS).
# Needs: TRUSTTOP, root (to drop privileges with setpriv/capsh).
. "$(dirname "$0")/../../tests/lib/assert.sh"
SUITE=trusttop-cli-errors
: "${TRUSTTOP:?}"
E=$(mktemp /tmp/trusttop-err.XXXXXX)
trap 'rm -f "$E"' EXIT

# expect WHAT STATUS REGEX CMD...: exit status, exactly one stderr line
# matching REGEX, nothing on stdout.
expect() {
	what=$1 st=$2 re=$3; shift 3
	out=$("$@" 2> "$E" < /dev/null); rc=$?
	t_eq "$what: exit status" "$st" "$rc"
	t_eq "$what: one line on stderr" 1 "$(wc -l < "$E")"
	if grep -Eq -- "$re" "$E"; then t_ok "$what: message"; else
		t_fail "$what: message /$re/, got: $(cat "$E")"; fi
	t_eq "$what: nothing on stdout" "" "$out"
}

expect "-d 0" 2 "^trusttop: -d '0': .*between 0.1 and 3600" "$TRUSTTOP" -b -d 0
expect "-d abc" 2 "^trusttop: -d 'abc'" "$TRUSTTOP" -b -d abc
expect "-n -1" 2 "^trusttop: -n '-1': .*whole number" "$TRUSTTOP" -b -n -1
expect "--sort" 2 "^trusttop: --sort 'size': unknown key: use rate" "$TRUSTTOP" -b --sort size
expect "--backend" 2 "^trusttop: --backend 'ebpf': unknown: use auto" "$TRUSTTOP" -b --backend ebpf
expect "--user" 2 "^trusttop: --user 'no-such-user-x': no such user" "$TRUSTTOP" -b -u no-such-user-x
expect "extra argument" 2 "^trusttop: unexpected argument 'foo'" "$TRUSTTOP" -b foo
expect "not a terminal" 2 "^trusttop: standard output is not a terminal: use -b" "$TRUSTTOP"
expect "unprivileged user" 3 "^trusttop: needs CAP_BPF and CAP_PERFMON \(or root\)" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TRUSTTOP" -b -n 1
expect "root without CAP_BPF/CAP_PERFMON/CAP_SYS_ADMIN" 3 "CAP_BPF and CAP_PERFMON" \
	capsh --drop=cap_bpf,cap_perfmon,cap_sys_admin -- -c "exec $TRUSTTOP -b -n 1"
# This host has no trusted_for tracepoint (mainline kernel).
if [ ! -e /proc/sys/fs/trust_policy ]; then
	expect "--backend trusted_for on mainline" 4 \
		"^trusttop: backend trusted_for unavailable: needs the trustfor-patched kernel" \
		"$TRUSTTOP" -b -n 1 --backend trusted_for
fi
# Reader gone: trusttop -b | head must end, quietly, with status 0.
timeout 60 sh -c "'$TRUSTTOP' -b -d 0.1 2> '$E' | head -n 1 > /dev/null; exit \$?"; rc=$?
t_eq "-b | head -n 1: pipeline ends" 0 "$rc"
t_eq "-b | head -n 1: nothing on stderr" "" "$(cat "$E")"
out=$("$TRUSTTOP" --help); rc=$?
t_eq "--help: exit status" 0 "$rc"
case $out in *"Exit status: 0 ok, 1 runtime failure, 2 usage, 3 missing privileges"*) t_ok "--help lists exit statuses";; *) t_fail "--help lists exit statuses";; esac
t_done "$SUITE"
