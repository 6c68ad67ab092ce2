#!/bin/bash
# Install the packages of `make deb` (build/deb/*.deb) into a clean Debian 12
# chroot and run the tools there.  Root only; needs debootstrap and the Debian
# mirror configured on the host (/etc/apt/sources.list.d/debian.sources).
#
#   build/deb/chroot      debootstrap --variant=minbase bookworm, made once and
#                         kept (remove it to re-create it); never modified
#   build/deb/run         fresh copy of it for each run, packages installed with
#                         apt-get (dependencies from the mirror); removed after
#                         a run that passed, kept for inspection otherwise
#   build/deb/apt-cache   the dependencies' .debs, kept between runs
#
# Prints "RESULT deb-install <passed> <failed>".  The set-up (debootstrap,
# apt-get update, install) is a precondition: it is not counted, and when it
# fails the suite fails.  What is counted are verdicts of the installed
# tools on inputs made here, each compared exactly with an independent
# source: the modes of the files created, the kernel's interfaces probed
# from the host (same kernel), the captured audit log counted with grep, the
# package versions from dpkg.  A mirror that cannot be reached is a failure,
# never a skip.
#
# usage: tests/deb/check.sh            (after make deb)
#   TF_DEB_MIRROR=URL   debootstrap from URL instead of the host's mirror
#   TF_DEB_CHROOT=DIR   cached base chroot DIR instead of build/deb/chroot
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
. "$top/tests/lib/mirror.sh"
suite=deb-install
out=$top/build/deb
base=${TF_DEB_CHROOT:-$out/chroot}
run=$out/run
cache=$out/apt-cache
log=$out/check.log

die() {
	t_fail "$*"
	t_done "$suite"
	exit 1
}
# note WHAT: a set-up step done (a precondition, not a test).
note() { echo "# deb: $*"; }

[ "$(id -u)" = 0 ] || die "tests/deb/check.sh must run as root (debootstrap, chroot)"
command -v debootstrap > /dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
debs=()
for d in "$out"/*.deb; do
	case $d in *-dbgsym_*) ;; *) [ -e "$d" ] && debs+=("$d") ;; esac
done
[ ${#debs[@]} -gt 0 ] || die "no packages in build/deb/: run 'make deb' first"

# The host's Debian mirror (tests/lib/mirror.sh).
mirror=$(debian_mirror)
host_sources=$HOST_SOURCES

# Every mount below $run is undone on exit, before anything is removed.
cleanup() {
	local m
	for m in "$run/tmp/tf" "$run/tmp/nx" "$run/proc"; do
		if mountpoint -q "$m" 2> /dev/null; then
			umount "$m" || umount -l "$m"
		fi
	done
}
trap cleanup EXIT

# 1. The base chroot, made once.
: > "$log"
if [ ! -e "$base/.trustfor-ready" ]; then
	echo "# deb: debootstrap --variant=minbase bookworm $mirror -> $base (log: build/deb/check.log)"
	rm -rf --one-file-system "$base" "$base.tmp"
	mkdir -p "$out"
	start=$(date +%s)
	if debootstrap --variant=minbase bookworm "$base.tmp" "$mirror" >> "$log" 2>&1; then
		touch "$base.tmp/.trustfor-ready"
		mv "$base.tmp" "$base"
		note "debootstrap bookworm from $mirror ($(($(date +%s) - start)) s)"
	else
		tail -5 "$log" | sed 's/^/# /'
		rm -rf --one-file-system "$base.tmp"
		die "debootstrap could not build a bookworm chroot from $mirror (see build/deb/check.log)"
	fi
else
	note "cached chroot build/deb/chroot"
fi

# 2. A fresh copy for this run, with the host's Debian sources (main,
# updates, security) so the built packages' dependencies resolve.
rm -rf --one-file-system "$run"
cp -a "$base" "$run" || die "copy of the chroot failed"
if [ -f "$host_sources" ]; then
	rm -f "$run/etc/apt/sources.list"
	cp "$host_sources" "$run/etc/apt/sources.list.d/debian.sources"
fi
# No daemons start inside the chroot.
printf '#!/bin/sh\nexit 101\n' > "$run/usr/sbin/policy-rc.d"
chmod 0755 "$run/usr/sbin/policy-rc.d"
mkdir -p "$cache" "$run/tmp/debs"
cp "${debs[@]}" "$run/tmp/debs/"
cp "$cache"/*.deb "$run/var/cache/apt/archives/" 2> /dev/null
mount -t proc proc "$run/proc" || die "cannot mount /proc in the chroot"

# in_chroot CMD...: run CMD in the chroot with a clean environment; with
# SECBITS set (e.g. 0x100, SECBIT_EXEC_RESTRICT_FILE), those securebits
# are added first (by the host's python3: the chroot is minimal), and
# inherited by CMD.
in_chroot() {
	local pre=()
	[ -n "${SECBITS:-}" ] && pre=(python3 -c 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
bits = libc.prctl(27, 0, 0, 0, 0)  # PR_GET_SECUREBITS
if bits < 0 or libc.prctl(28, bits | int(sys.argv[1], 0), 0, 0, 0):  # PR_SET_
    sys.exit("cannot set securebits " + sys.argv[1] + ": " + os.strerror(ctypes.get_errno()))
os.execvp(sys.argv[2], sys.argv[2:])' "$SECBITS")
	"${pre[@]}" chroot "$run" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# 3. Install with apt-get so that ${shlibs:Depends} are fetched.
names=()
for d in "${debs[@]}"; do names+=("/tmp/debs/$(basename "$d")"); done
if in_chroot apt-get update -q >> "$log" 2>&1; then
	note "apt-get update in the chroot ($mirror)"
else
	tail -5 "$log" | sed 's/^/# /'
	die "apt-get update in the chroot failed: mirror $mirror unreachable? (see build/deb/check.log)"
fi
if in_chroot apt-get install -y -q --no-install-recommends "${names[@]}" >> "$log" 2>&1; then
	note "apt-get install ${#debs[@]} packages: $(for d in "${debs[@]}"; do basename "$d" | sed 's/_.*//'; done | tr '\n' ' ')"
else
	tail -15 "$log" | sed 's/^/# /'
	die "apt-get install of the packages failed (see build/deb/check.log)"
fi
# Keep the downloaded dependencies for the next run.
cp -u "$run"/var/cache/apt/archives/*.deb "$cache/" 2> /dev/null

# 4. The tools in the chroot, on inputs made here.
# What the kernel offers, probed from the host (the chroot shares its
# kernel) without our tools: the sysctl; execveat(AT_EXECVE_CHECK) of
# /bin/true (x86_64 syscall 322) answering 0 instead of EINVAL.
[ "$(uname -m)" = x86_64 ] || die "the AT_EXECVE_CHECK probe here is written for x86_64"
ec=$(python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("/bin/true", os.O_RDONLY)
r = libc.syscall(322, fd, b"", None, None, 0x1000 | 0x10000)
print("yes" if r == 0 else "no" if ctypes.get_errno() == 22 else "errno %d" % ctypes.get_errno())')
case $ec in yes | no) ;; *) die "AT_EXECVE_CHECK probe: $ec" ;; esac
policy=
if [ -e /proc/sys/fs/trust_policy ]; then
	backend=trusted_for policy=$(cat /proc/sys/fs/trust_policy)
elif [ "$ec" = yes ]; then
	backend=execve_check
else
	backend=none
fi
note "kernel: backend $backend${policy:+, policy $policy}"

# The inputs: scripts with known modes on two tmpfs mounted in the chroot
# (so that they appear in its mount table): /tmp/tf, and /tmp/nx mounted
# noexec; the captured audit log.
mkdir -p "$run/tmp/tf" "$run/tmp/nx"
mount -t tmpfs -o mode=0755,size=1m tf-deb "$run/tmp/tf" || die "cannot mount a tmpfs on the chroot's /tmp/tf"
mount -t tmpfs -o mode=0755,size=1m,noexec tf-deb-nx "$run/tmp/nx" || die "cannot mount a noexec tmpfs on the chroot's /tmp/nx"
printf 'echo script-ok\n' > "$run/tmp/tf/tool.sh"
printf 'echo plain-ok\n' > "$run/tmp/tf/plain.sh"
printf 'print("notes")\n' > "$run/tmp/tf/notes.py"
printf 'echo nx-ok\n' > "$run/tmp/nx/tool.sh"
chmod 0755 "$run/tmp/tf/tool.sh" "$run/tmp/nx/tool.sh"
chmod 0644 "$run/tmp/tf/plain.sh" "$run/tmp/tf/notes.py"
# on_noexec PATH (in the chroot): its mount's options, from findmnt.
on_noexec() { findmnt -n -o OPTIONS -T "$run$1" | tr ',' '\n' | grep -qx noexec; }
# has_x PATH: some x bit, from find.
has_x() { [ -n "$(find "$run$1" -perm /111)" ]; }
cp "$top/tests/data/audit-vm-captured.log" "$run/tmp/audit.log"
den=$(grep -c '^type=UNKNOWN\[1350\] ' "$top/tests/data/audit-vm-captured.log")
chg=$(grep -c '^type=CONFIG_CHANGE .* op=trust_policy ' "$top/tests/data/audit-vm-captured.log")
# the pid of each policy change's writer, in log order
wpids=$(grep '^type=CONFIG_CHANGE .* op=trust_policy ' "$top/tests/data/audit-vm-captured.log" |
	grep -o ' pid=[0-9]*' | cut -d= -f2 | tr '\n' ' ')

# verdict WHAT WANT_RC WANT_OUTPUT CMD...: CMD in the chroot exits WANT_RC
# and prints exactly WANT_OUTPUT (stdout and stderr).
verdict() {
	local what=$1 want_rc=$2 want=$3 output rc
	shift 3
	output=$(in_chroot "$@" 2>&1)
	rc=$?
	printf '%s\n' "$output" | sed 's/^/#   /'
	if [ "$rc" = "$want_rc" ] && [ "$output" = "$want" ]; then
		t_ok "$what"
	else
		t_fail "$what: exit $rc, expected $want_rc; output '$(printf '%s' "$output" | head -c 300)', expected '$want'"
	fi
}
# check WHAT PATTERN CMD...: CMD exits 0 and its output matches PATTERN.
check() {
	local what=$1 pattern=$2 output rc
	shift 2
	output=$(in_chroot "$@" 2>&1)
	rc=$?
	printf '%s\n' "$output" | sed 's/^/#   /'
	if [ "$rc" != 0 ]; then
		t_fail "$what (exit $rc)"
	elif ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
		t_fail "$what: output does not match /$pattern/"
	else
		t_ok "$what"
	fi
}
# The model (trusted_for(2), README): the reasons policy P denies PATH to
# root, "" when allowed.  The kernel stops at the first reason: a noexec
# mount is reported alone, the permission is checked only on exec mounts.
deny_reasons() { # POLICY PATH
	if [ $(($1 & 1)) = 1 ] && on_noexec "$2"; then
		echo noexec_mount
	elif [ $(($1 & 2)) = 2 ] && ! has_x "$2"; then
		echo file_perm
	fi
}
explain_files=(/tmp/tf/notes.py /tmp/tf/tool.sh /tmp/nx/tool.sh)
explain_lines() { # POLICY: policyctl explain's lines for explain_files
	local f r
	for f in "${explain_files[@]}"; do
		r=$(deny_reasons "$1" "$f")
		if [ -n "$r" ]; then echo "deny  $r policy=$1 user=root $f"
		else echo "allow - policy=$1 user=root $f"; fi
	done
}
explain_rc() { explain_lines "$1" | grep -q '^deny' && echo 1 || echo 0; }

verdict "policyctl status: backend $backend" 0 "backend:          $backend" \
	sh -c 'policyctl status | grep "^backend:"'
for p in 3 2 1; do
	verdict "policyctl explain --policy $p: notes.py (0644), tool.sh (0755), noexec tool.sh (0755)" \
		"$(explain_rc $p)" "$(explain_lines $p)" \
		policyctl explain --policy $p --user root "${explain_files[@]}"
done
verdict "audisp-trusted-for report: $den denials, $chg policy changes (grep)" 0 \
	"$(printf 'Number of denials: %s\nNumber of policy changes: %s' "$den" "$chg")" \
	sh -c 'audisp-trusted-for report --input /tmp/audit.log | grep -E "^Number of (denials|policy changes):"'
verdict "audisp-trusted-for report --table policy: the writers' pids $wpids(grep)" 0 "$wpids" \
	sh -c 'audisp-trusted-for report --input /tmp/audit.log --table policy | grep -E "^[0-9]+\. " | cut -d" " -f11 | tr "\n" " "'
check "trusttop --help" '^Usage: trusttop' trusttop --help
check "trustfor-relay --help" '^usage: trustfor-relay' trustfor-relay --help
verdict "trustfor-relay.service: installed, not enabled" 0 "/lib/systemd/system/trustfor-relay.service" \
	sh -c 'for f; do [ -e "$f" ] && echo "$f"; done; true' - /lib/systemd/system/trustfor-relay.service \
	/etc/systemd/system/multi-user.target.wants/trustfor-relay.service
check "audisp-trusted-for --help" '^usage: audisp-trusted-for' audisp-trusted-for --help
verdict "trusted-dash -c 'echo ok'" 0 ok trusted-dash -c 'echo ok'
# trusted-dash's refusal reason for PATH, "" when it runs: the kernel's
# verdict, or without an interface the fallback rule (README "When the
# kernel cannot answer": refuse only on noexec mounts).
dash_why() {
	local nx=false x=false
	on_noexec "$1" && nx=true
	has_x "$1" && x=true
	case $backend in
	execve_check)
		# check_exec.rst: enforced only under SECBIT_EXEC_RESTRICT_FILE.
		[ $((${SECBITS:-0} & 0x100)) = 0 ] && return
		if $nx; then echo "on a noexec mount (AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set)"
		elif ! $x; then echo "no execute permission (AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set)"; fi ;;
	trusted_for)
		if $nx && [ $((policy & 1)) = 1 ]; then echo "on a noexec mount (trusted_for)"
		elif ! $x && [ $((policy & 2)) = 2 ]; then echo "no execute permission (trusted_for)"; fi ;;
	none) $nx && echo "on a noexec mount (kernel cannot answer, fallback rule)" ;;
	esac
}
# dash_verdict PATH OUTPUT: exit 126 and the exact refusal, or exit 0 and OUTPUT.
dash_verdict() {
	local why what
	why=$(dash_why "$1")
	what="trusted-dash $1 ($(stat -c %a "$run$1")$(on_noexec "$1" && echo ', noexec mount'))"
	[ -n "${SECBITS:-}" ] && what="$what, securebits +$SECBITS"
	if [ -n "$why" ]; then
		verdict "$what: refused, exit 126 (backend $backend${policy:+, policy $policy})" 126 \
			"trusted-dash: 0: $1: refused to interpret: $why" trusted-dash "$1"
	else
		verdict "$what: runs (backend $backend${policy:+, policy $policy})" 0 "$2" trusted-dash "$1"
	fi
}
dash_verdict /tmp/tf/tool.sh script-ok
dash_verdict /tmp/tf/plain.sh plain-ok
dash_verdict /tmp/nx/tool.sh nx-ok
# Under AT_EXECVE_CHECK, again in a session that set SECBIT_EXEC_RESTRICT_FILE.
if [ "$backend" = execve_check ]; then
	SECBITS=0x100 dash_verdict /tmp/tf/tool.sh script-ok
	SECBITS=0x100 dash_verdict /tmp/tf/plain.sh plain-ok
	SECBITS=0x100 dash_verdict /tmp/nx/tool.sh nx-ok
fi
pyver=$(in_chroot dpkg-query -W -f='${Version}' libpython3.11 | sed 's/-[^-]*$//')
verdict "trusted-python3 --version: the chroot's libpython3.11 ($pyver)" 0 "Python $pyver" trusted-python3 --version
# It runs everywhere without SECBIT_EXEC_RESTRICT_FILE (no interface:
# fallback rule; trusted_for: policy 0 here; AT_EXECVE_CHECK: asked, not
# enforced).  Under AT_EXECVE_CHECK (mainline >= 6.14) with the bit set,
# the stock standard library (mode 644) is refused by design
# (trusted-python3(1), REQUIREMENTS).
verdict "trusted-python3 -c 'print(\"ok\")'" 0 ok trusted-python3 -c 'print("ok")'
if [ "$backend" = execve_check ]; then
	output=$(SECBITS=0x100 in_chroot trusted-python3 -c 'print("ok")' 2>&1)
	rc=$?
	printf '%s\n' "$output" | sed 's/^/#   /'
	if [ "$rc" = 126 ] && printf '%s\n' "$output" | grep -q 'encodings/__init__.py: refused to interpret: no execute permission (AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set)'; then
		t_ok "trusted-python3 -c, SECBIT_EXEC_RESTRICT_FILE set: stock stdlib refused under AT_EXECVE_CHECK (exit 126, as documented)"
	else
		t_fail "trusted-python3 -c under AT_EXECVE_CHECK with SECBIT_EXEC_RESTRICT_FILE set: expected exit 126 naming encodings/__init__.py, got exit $rc"
	fi
fi
check "libtrustedfor.so.1 in the ld.so cache" 'libtrustedfor\.so\.1 ' sh -c 'ldconfig -p | grep libtrustedfor'
multiarch=$(gcc -print-multiarch 2> /dev/null || echo x86_64-linux-gnu)
verdict "libtrustedfor.pc describes the installed paths" 0 \
	"$(printf 'prefix=/usr\nlibdir=/usr/lib/%s\nincludedir=/usr/include' "$multiarch")" \
	sh -c "grep -E '^(prefix|libdir|includedir)=' /usr/lib/$multiarch/pkgconfig/libtrustedfor.pc"
verdict "trustedfor.h and libtrustedfor.so where the .pc says" 0 "" \
	test -f /usr/include/trustedfor.h -a -e "/usr/lib/$multiarch/libtrustedfor.so"
# The plugin's plugins.d file: made by postinst from the template (not a
# conffile, which would outlive a remove), 0640 like auditd's own.
check "the settings file is a conffile" '^ /etc/audit/audisp-trusted-for.conf ' \
	dpkg-query -W -f='${Conffiles}\n' trustfor-tools
verdict "plugins.d file put in place by postinst from the template, 0640" 0 "640" \
	sh -c 'cmp -s /usr/share/trustfor-tools/audisp-trusted-for.plugin.conf \
		/etc/audit/plugins.d/audisp-trusted-for.conf && stat -c %a /etc/audit/plugins.d/audisp-trusted-for.conf'
verdict "plugins.d file is not a conffile" 0 "" \
	sh -c "dpkg-query -W -f='\${Conffiles}\n' trustfor-tools | grep plugins.d"'; [ $? = 1 ]'
# Remove: out of plugins.d (kept beside it), the metrics file gone; a
# reinstall brings the administrator's file back; purge deletes it all.
in_chroot sh -c 'echo "# edited by the administrator" >> /etc/audit/plugins.d/audisp-trusted-for.conf
	mkdir -p /var/lib/prometheus/node-exporter /var/lib/audisp-trusted-for
	echo "metrics_dir = /var/lib/prometheus/node-exporter" >> /etc/audit/audisp-trusted-for.conf
	echo "x 1" > /var/lib/prometheus/node-exporter/audisp-trusted-for.prom
	echo "{}" > /var/lib/audisp-trusted-for/state.json'
in_chroot apt-get remove -y -q trustfor-tools >> "$log" 2>&1
# exists FILE...: the names of those that exist, one a line.
exists='for f; do [ -e "$f" ] && echo "$f"; done; true'
verdict "apt-get remove: no plugin left in plugins.d, its metrics file gone, its state kept" 0 \
	"$(printf '%s\n' /etc/audit/audisp-trusted-for.plugin-removed.conf /var/lib/audisp-trusted-for/state.json)" \
	sh -c "$exists" - /etc/audit/plugins.d/audisp-trusted-for.conf \
	/var/lib/prometheus/node-exporter/audisp-trusted-for.prom \
	/etc/audit/audisp-trusted-for.plugin-removed.conf /var/lib/audisp-trusted-for/state.json
in_chroot apt-get install -y -q --no-install-recommends "/tmp/debs/$(basename "$(ls "$out"/trustfor-tools_*.deb | head -n 1)")" >> "$log" 2>&1
verdict "a reinstall puts the administrator's plugins.d file back" 0 \
	"# edited by the administrator" \
	grep -x '# edited by the administrator' /etc/audit/plugins.d/audisp-trusted-for.conf
check "man pages installed" 'policyctl\.8\.gz' sh -c 'dpkg -L trustfor-tools | grep /man/'

# 5. Removal leaves nothing behind.
names=()
for d in "${debs[@]}"; do names+=("$(basename "$d" | sed 's/_.*//')"); done
if in_chroot apt-get purge -y -q "${names[@]}" >> "$log" 2>&1 &&
	[ ! -e "$run/etc/audit/plugins.d/audisp-trusted-for.conf" ] &&
	[ ! -e "$run/etc/audit/audisp-trusted-for.plugin-removed.conf" ] &&
	[ ! -e "$run/etc/audit/audisp-trusted-for.conf" ] &&
	[ ! -e "$run/var/lib/audisp-trusted-for" ] &&
	[ ! -e "$run/usr/sbin/policyctl" ]; then
	t_ok "apt-get purge removes the packages, their conffiles, the plugins.d file and the state"
else
	t_fail "apt-get purge (see build/deb/check.log)"
fi

cleanup
# The run copy is kept only when something failed, for inspection.
if [ "$T_FAIL" = 0 ] && ! mountpoint -q "$run/proc"; then
	rm -rf --one-file-system "$run"
fi
t_done "$suite"
