#!/bin/sh
# Host test: bad input and missing privileges/backends give one clear line
# on stderr and the documented exit status (trusttop.8, EXIT STATUS).
# Runs on any kernel: what needs a backend is skipped without one.
# Needs: TRUSTTOP, WORKLOAD (tests/probe: its --kernel probes the kernel), root (to drop
# privileges with setpriv/capsh, to mask /sys/kernel with unshare).
. "$(dirname "$0")/../../tests/lib/assert.sh"
. "$(dirname "$0")/model.sh"
SUITE=trusttop-cli-errors
: "${TRUSTTOP:?}"
: "${WORKLOAD:=$(dirname "$(dirname "$TRUSTTOP")")/tests/probe/probe}"
tt_detect
E=$(mktemp /tmp/trusttop-err.XXXXXX)
trap 'rm -f "$E" "$E.tty"' EXIT

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

# getopt's own message is off: one line, naming the option
expect "unknown option" 2 "^trusttop: unknown option '-Z': see trusttop --help" "$TRUSTTOP" -b -Z
expect "unknown long option" 2 "^trusttop: unknown option '--bogus': see" "$TRUSTTOP" --bogus
expect "no value" 2 "^trusttop: option '-n' needs a value: see trusttop --help$" "$TRUSTTOP" -b -n
# the option getopt refused, not the word before it or its short twin
expect "unknown inside a word" 2 "^trusttop: unknown option '-Z': see" "$TRUSTTOP" -Zb
expect "long option with a value" 2 "^trusttop: option '--json' takes no value: see" \
	"$TRUSTTOP" --json=1
expect "hostile option" 2 "^trusttop: unknown option '--x\\\\x1b\\[2J': see" \
	"$TRUSTTOP" "$(printf -- '--x\033[2J')"
expect "hostile argument" 2 "^trusttop: unexpected argument 'x\\\\x1b\\[2J': see" \
	"$TRUSTTOP" -b "$(printf 'x\033[2J')"
expect "-d 0" 2 "^trusttop: -d '0': .*between 0.1 and 3600" "$TRUSTTOP" -b -d 0
expect "-d abc" 2 "^trusttop: -d 'abc'" "$TRUSTTOP" -b -d abc
expect "-n -1" 2 "^trusttop: -n '-1': .*whole number" "$TRUSTTOP" -b -n -1
expect "--sort" 2 "^trusttop: --sort 'size': unknown key: use rate" "$TRUSTTOP" -b --sort size
expect "--backend" 2 "^trusttop: --backend 'ebpf': unknown: use auto" "$TRUSTTOP" -b --backend ebpf
expect "--user" 2 "^trusttop: --user 'no-such-user-x': no such user" "$TRUSTTOP" -b -u no-such-user-x
expect "--api" 2 "^trusttop: --api 'execve': unknown interface: use trusted_for, execve_check or all$" \
	"$TRUSTTOP" -b --api execve
# Hostile bytes in an argument are shown escaped, never raw (ESC, BEL, RLO).
expect "-n hostile" 2 "^trusttop: -n '1\\\\x1b\\[2J\\\\xe2\\\\x80\\\\xae': .*whole number" \
	"$TRUSTTOP" -b -n "$(printf '1\033[2J\342\200\256')"
expect "--user hostile" 2 "^trusttop: --user 'x\\\\x07y': no such user" \
	"$TRUSTTOP" -b -u "$(printf 'x\007y')"
expect "extra argument" 2 "^trusttop: unexpected argument 'foo'" "$TRUSTTOP" -b foo
expect "not a terminal" 2 "^trusttop: standard output is not a terminal: use -b" "$TRUSTTOP"
expect "unprivileged user" 3 "^trusttop: needs CAP_BPF and CAP_PERFMON \(or root\)" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TRUSTTOP" -b -n 1
expect "root without CAP_BPF/CAP_PERFMON/CAP_SYS_ADMIN" 3 "CAP_BPF and CAP_PERFMON" \
	capsh --drop=cap_bpf,cap_perfmon,cap_sys_admin -- -c "exec $TRUSTTOP -b -n 1"
# The backend this kernel lacks, asked for by name.  AT_EXECVE_CHECK is
# probed here, not through trusttop: execveat(AT_FDCWD, a missing file,
# AT_EXECVE_CHECK) is ENOENT where the flag is known, EINVAL where not.
has_ec=$(python3 -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(322, -100, b"/nonexistent/trusttop-probe", None, None, 0x10000)
print("yes" if r and ctypes.get_errno() == 2 else "no")')
if [ -e /proc/sys/fs/trust_policy ] && [ "$has_ec" = yes ]; then
	for c in "exit status" "one line on stderr" message "nothing on stdout"; do
		t_skip "a missing backend asked for by name: $c: this kernel has both trusted_for and AT_EXECVE_CHECK (the trustfor 6.1 kernel since issue 11): none is missing"
	done
elif [ -e /proc/sys/fs/trust_policy ]; then
	expect "--backend execve_check without AT_EXECVE_CHECK" 4 \
		"^trusttop: backend execve_check unavailable on kernel [^ ]+: no execveat\(AT_EXECVE_CHECK\) \(needs Linux >= 6.14\)$" \
		"$TRUSTTOP" -b -n 1 --backend execve_check
else
	expect "--backend trusted_for without the patched kernel" 4 \
		"^trusttop: backend trusted_for unavailable on kernel [^ ]+: no trusted_for_verdict tracepoint \(needs the trustfor-patched kernel\)$" \
		"$TRUSTTOP" -b -n 1 --backend trusted_for
fi
# The patched kernel's execve_check_verdict tracepoint asked for by name:
# hidden with the rest of /sys/kernel, so missing on every kernel.
expect "--backend execve_check-tp without its tracepoint" 4 \
	"^trusttop: backend execve_check-tp unavailable on kernel [^ ]+: no execve_check_verdict tracepoint \(needs the trustfor-patched kernel" \
	unshare -m sh -c "mount -t tmpfs -o ro,size=4k tt-mask /sys/kernel && exec '$TRUSTTOP' -b -n 1 --backend execve_check-tp"
# A kernel with no backend at all (Debian 12's 6.1): here, with tracefs and
# BTF hidden under an empty read-only /sys/kernel, no backend can be found
# (on a mainline kernel, AT_EXECVE_CHECK then lacks its tracepoints).
expect "no backend at all" 4 \
	"^trusttop: no backend on kernel [^ ]+: no tracefs .*trustfor-patched kernel.*, and (no execveat\(AT_EXECVE_CHECK\)|AT_EXECVE_CHECK but no syscall tracepoints)" \
	unshare -m sh -c "mount -t tmpfs -o ro,size=4k tt-mask /sys/kernel && exec '$TRUSTTOP' -b -n 1"
# tracefs not mounted: trusttop says how to mount it, and mounts nothing
# itself (an empty writable tmpfs where tracefs would be; the classic
# tracepoint asked for by name needs tracefs on every kernel).
unshare -m sh -c "mount -t tmpfs -o size=4k tt-mask /sys/kernel/tracing &&
	{ [ ! -d /sys/kernel/debug/tracing ] || mount -t tmpfs -o size=4k tt-mask /sys/kernel/debug; } &&
	{ '$TRUSTTOP' -b -n 1 --backend execve_check-tp > /dev/null; echo \$?;
	  stat -f -c %T /sys/kernel/tracing; }" 2> "$E" > "$E.tty" < /dev/null
t_eq "tracefs not mounted: exit status" 4 "$(sed -n 1p "$E.tty")"
if [ "$(wc -l < "$E")" = 1 ] && grep -q "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing\$" "$E"; then
	t_ok "tracefs not mounted: one line naming the fix"; else
	t_fail "tracefs not mounted: one line naming the fix, got: $(cat "$E")"; fi
t_eq "tracefs not mounted: trusttop mounts nothing" tmpfs "$(sed -n 2p "$E.tty")"
# The same from a terminal (the interactive view): the message, not a screen.
unshare -m sh -c "mount -t tmpfs -o ro,size=4k tt-mask /sys/kernel && exec script -qec \"'$TRUSTTOP' 2> '$E.tty'\" /dev/null" > /dev/null 2>&1 < /dev/null; rc=$?
t_eq "no backend, interactive: exit status" 4 "$rc"
if [ "$(wc -l < "$E.tty")" = 1 ] && grep -q "^trusttop: no backend on kernel " "$E.tty"; then
	t_ok "no backend, interactive: one line"; else
	t_fail "no backend, interactive: one line, got: $(cat "$E.tty")"; fi
# Reader gone: trusttop -b | head must end, quietly, with status 0.
if [ "$BK" = none ]; then
	t_skip "-b | head -n 1: pipeline ends: $TT_WHY"
	t_skip "-b | head -n 1: nothing on stderr: $TT_WHY"
else
	timeout 60 sh -c "'$TRUSTTOP' -b -d 0.1 2> '$E' | head -n 1 > /dev/null; exit \$?"; rc=$?
	t_eq "-b | head -n 1: pipeline ends" 0 "$rc"
	t_eq "-b | head -n 1: nothing on stderr" "" "$(cat "$E")"
fi
out=$("$TRUSTTOP" --help); rc=$?
t_eq "--help: exit status" 0 "$rc"
case $out in *"Exit status: 0 ok, 1 runtime failure, 2 usage, 3 missing privileges"*) t_ok "--help lists exit statuses";; *) t_fail "--help lists exit statuses";; esac
t_done "$SUITE"
