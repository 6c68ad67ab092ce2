#!/bin/sh
# The test probe's own tests: its verdicts against execve(2)'s rules for
# AT_EXECVE_CHECK, its options, output and exit status.
# usage: check.sh PROBE   (root: a noexec mount and --as need it)
SUITE=probe
PROBE=${1:?usage: check.sh PROBE}
. "$(dirname "$0")/../lib/assert.sh"
T=$(mktemp -d /tmp/probe-check.XXXXXX)
trap 'umount "$T/nx" 2>/dev/null; rm -rf "$T"' EXIT
TAB=$(printf '\t')

# What the kernel offers, asked here with python's ctypes, not by the probe:
# trusted_for(2) iff its sysctl exists; AT_EXECVE_CHECK iff execveat() on
# /bin/true answers 0 instead of EINVAL.
ec=$(python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("/bin/true", os.O_RDONLY)
argv = (ctypes.c_char_p * 2)(b"probe", None)
envp = (ctypes.c_char_p * 1)(None)
r = libc.syscall(322, fd, b"", argv, envp, 0x1000 | 0x10000)
print("execve_check" if r == 0 else "")')
tf=
[ ! -e /proc/sys/fs/trust_policy ] || tf=trusted_for
offers=$(echo $tf $ec)
t_eq "--kernel: what the kernel offers" "${offers:-none}" "$("$PROBE" --kernel)"
t_eq "--backend: libtrustedfor's default" "$(echo $tf $ec none | cut -d' ' -f1)" \
	"$("$PROBE" --backend)"

# run CMD...: $out, $err, $rc
run() { out=$("$@" 2>"$T/err"); rc=$?; err=$(cat "$T/err"); }
# usage_error WHAT NEEDLE: exit 2, one line on stderr holding NEEDLE
usage_error() {
	t_eq "$1: exit 2" 2 "$rc"
	case $err in
	*"$2"*) t_eq "$1: one-line error" 1 "$(printf '%s\n' "$err" | wc -l)" ;;
	*) t_fail "$1: '$2' not in '$err'" ;;
	esac
}
run "$PROBE" --bogus /bin/true
usage_error "unknown option" "probe: unknown option '--bogus' (see probe --help)"
run "$PROBE" -wz /bin/true
usage_error "unknown option in a word" "probe: unknown option '-z' (see"
run "$PROBE" -n
usage_error "option without its value" "probe: option '-n' needs a value"
run "$PROBE"
usage_error "no FILE" "no FILE"
run "$PROBE" --api nope /bin/true
usage_error "--api nope" "--api 'nope'"
run "$PROBE" -n 0 /bin/true
usage_error "--count 0" "--count '0'"
run "$PROBE" --as no-such-user-tf /bin/true
usage_error "--as unknown user" "--as 'no-such-user-tf'"
run "$PROBE" -s lots /bin/true
usage_error "--secbits not a number" "--secbits 'lots'"
run "$PROBE" --help
t_eq "--help: exit 0, documents the exit status" "0 yes" \
	"$rc $(case $out in *"Exit status: 0 every check allowed, 1 some denied"*) echo yes ;; esac)"

printf '#!/bin/sh\n' > "$T/ok.sh"; chmod 755 "$T/ok.sh"
printf 'x\n' > "$T/nox.txt"; chmod 644 "$T/nox.txt"
printf '#!/bin/sh\n' > "$T/root0700.sh"; chmod 700 "$T/root0700.sh"
mkdir "$T/dir" "$T/nx"
chmod 755 "$T"

# -a trusted_for: only where the sysctl says the kernel has it
run "$PROBE" -a trusted_for "$T/ok.sh"
if [ -n "$tf" ]; then
	t_eq "trusted_for: x file allowed" "allow$TAB-${TAB}trusted_for$TAB$T/ok.sh 0" "$out $rc"
else
	t_eq "trusted_for without its sysctl: ENOSYS, exit 3" \
		"error${TAB}ENOSYS${TAB}none$TAB$T/ok.sh 3" "$out $rc"
fi

if [ -z "$ec" ]; then
	run "$PROBE" -a execve_check "$T/ok.sh"
	t_eq "execve_check on a kernel without it: ENOSYS, exit 3" \
		"error${TAB}ENOSYS${TAB}execve_check$TAB$T/ok.sh 3" "$out $rc"
	T_SKIP=$((T_SKIP + 17))
	t_skip "execve(2)'s verdicts (18 checks): this kernel has no AT_EXECVE_CHECK (Linux >= 6.14 or the trustfor kernel)"
	t_done $SUITE; exit
fi
A="-a execve_check"
# verdict WHAT EXPECTED-LINE EXPECTED-RC PROBE-ARGS...
verdict() {
	what=$1 line=$2 want_rc=$3; shift 3
	run "$PROBE" "$@"
	t_eq "$what" "$line (exit $want_rc)" "$out (exit $rc)"
}
verdict "x file allowed" "allow$TAB-${TAB}execve_check$TAB$T/ok.sh" 0 $A "$T/ok.sh"
verdict "file without x bit refused" "deny${TAB}EACCES${TAB}execve_check$TAB$T/nox.txt" 1 $A "$T/nox.txt"
verdict "directory refused" "deny${TAB}EACCES${TAB}execve_check$TAB$T/dir" 1 $A "$T/dir"
verdict "/proc file refused" "deny${TAB}EACCES${TAB}execve_check$TAB/proc/version" 1 $A /proc/version
verdict "open for writing (-w): busy" "deny${TAB}ETXTBSY${TAB}execve_check$TAB$T/ok.sh" 1 $A -w "$T/ok.sh"
verdict "missing file: error, exit 4" "error${TAB}ENOENT${TAB}none$TAB$T/missing" 4 $A "$T/missing"
verdict "default API: libtrustedfor's backend answers" \
	"allow$TAB-$TAB$("$PROBE" --backend)$TAB$T/ok.sh" 0 "$T/ok.sh"
if mount -t tmpfs -o noexec,mode=755 probe-nx "$T/nx"; then
	cp -p "$T/ok.sh" "$T/nx/ok.sh"
	verdict "x file on a noexec mount refused" \
		"deny${TAB}EACCES${TAB}execve_check$TAB$T/nx/ok.sh" 1 $A "$T/nx/ok.sh"
else
	t_fail "mount a noexec tmpfs (root)"
fi
verdict "stdin (-), a x file" "allow$TAB-${TAB}execve_check$TAB-" 0 $A - < "$T/ok.sh"
run sh -c "echo | '$PROBE' $A -"
t_eq "stdin (-), a pipe: refused" "deny${TAB}EACCES${TAB}execve_check$TAB- 1" "$out $rc"
run "$PROBE" $A fd:pipe
case $out in
"deny${TAB}EACCES${TAB}execve_check${TAB}fd:pipe$TAB/proc/"*/fd/[0-9]*) t_ok "fd:pipe refused, names its descriptor" ;;
*) t_fail "fd:pipe refused, names its descriptor: '$out'" ;;
esac
verdict "mixed: allowed and refused, exit 1" \
	"allow$TAB-${TAB}execve_check$TAB$T/ok.sh
deny${TAB}EACCES${TAB}execve_check$TAB$T/nox.txt" 1 $A "$T/ok.sh" "$T/nox.txt"
verdict "--count: the summary only" "allowed 5 denied 5 errors 0 checks 10" 1 \
	$A -n 5 "$T/ok.sh" "$T/nox.txt"
verdict "--count, all allowed: exit 0" "allowed 3 denied 0 errors 0 checks 3" 0 \
	$A -n 3 "$T/ok.sh"
# --as: root opens, nobody asks: the verdict is the subject's
verdict "--as 65534: root's 0700 file refused to nobody" \
	"deny${TAB}EACCES${TAB}execve_check$TAB$T/root0700.sh" 1 $A --as 65534 "$T/root0700.sh"
verdict "as root: the same file allowed" \
	"allow$TAB-${TAB}execve_check$TAB$T/root0700.sh" 0 $A "$T/root0700.sh"
# --comm and --hold: the name while asking, the descriptors held
mkfifo "$T/fifo"
"$PROBE" $A -c probe-c --hold "$T/ok.sh" < "$T/fifo" > "$T/held" &
pid=$!
exec 9> "$T/fifo"
i=0; while [ ! -s "$T/held" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
t_eq "--comm while held" probe-c "$(cat /proc/$pid/comm 2>&1)"
exec 9>&-
wait $pid
t_eq "--hold: exits once stdin is closed" 0 "$?"

t_done $SUITE
