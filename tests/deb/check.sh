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
# Prints "RESULT deb-install <passed> <failed>".  A mirror that cannot be
# reached is a failure, never a skip.
#
# usage: tests/deb/check.sh            (after make deb)
#   TF_DEB_MIRROR=URL   debootstrap from URL instead of the host's mirror
#   TF_DEB_CHROOT=DIR   cached base chroot DIR instead of build/deb/chroot
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
suite=deb-install
out=$top/build/deb
base=${TF_DEB_CHROOT:-$out/chroot}
run=$out/run
cache=$out/apt-cache
log=$out/check.log
suites="bookworm"

die() {
	t_fail "$*"
	t_done "$suite"
	exit 1
}

[ "$(id -u)" = 0 ] || die "tests/deb/check.sh must run as root (debootstrap, chroot)"
command -v debootstrap > /dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
debs=()
for d in "$out"/*.deb; do
	case $d in *-dbgsym_*) ;; *) [ -e "$d" ] && debs+=("$d") ;; esac
done
[ ${#debs[@]} -gt 0 ] || die "no packages in build/deb/: run 'make deb' first"

# The host's Debian mirror: the first "deb" URI of debian.sources, else of
# sources.list.
host_sources=/etc/apt/sources.list.d/debian.sources
mirror=
if [ -f "$host_sources" ]; then
	mirror=$(awk '
		/^[ \t]*$/ { if (deb && uri != "" && !done) { print uri; done = 1 } deb = 0; uri = ""; next }
		/^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { if ($0 ~ /-security/) deb = 0 }
		END { if (deb && uri != "" && !done) print uri }' "$host_sources")
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
	mirror=$(awk '$1 == "deb" && $3 !~ /security/ { print $2; exit }' /etc/apt/sources.list)
fi
mirror=${TF_DEB_MIRROR:-${mirror:-http://deb.debian.org/debian}}

# Every mount below $run is undone on exit, before anything is removed.
cleanup() {
	if mountpoint -q "$run/proc" 2> /dev/null; then
		umount "$run/proc" || umount -l "$run/proc"
	fi
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
		t_ok "debootstrap bookworm from $mirror ($(($(date +%s) - start)) s)"
	else
		tail -5 "$log" | sed 's/^/# /'
		rm -rf --one-file-system "$base.tmp"
		die "debootstrap could not build a bookworm chroot from $mirror (see build/deb/check.log)"
	fi
else
	t_ok "cached chroot build/deb/chroot"
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

# in_chroot CMD...: run CMD in the chroot with a clean environment.
in_chroot() {
	chroot "$run" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# 3. Install with apt-get so that ${shlibs:Depends} are fetched.
names=()
for d in "${debs[@]}"; do names+=("/tmp/debs/$(basename "$d")"); done
if in_chroot apt-get update -q >> "$log" 2>&1; then
	t_ok "apt-get update in the chroot ($mirror)"
else
	tail -5 "$log" | sed 's/^/# /'
	die "apt-get update in the chroot failed: mirror $mirror unreachable? (see build/deb/check.log)"
fi
if in_chroot apt-get install -y -q --no-install-recommends "${names[@]}" >> "$log" 2>&1; then
	t_ok "apt-get install ${#debs[@]} packages: $(for d in "${debs[@]}"; do basename "$d" | sed 's/_.*//'; done | tr '\n' ' ')"
else
	tail -15 "$log" | sed 's/^/# /'
	die "apt-get install of the packages failed (see build/deb/check.log)"
fi
# Keep the downloaded dependencies for the next run.
cp -u "$run"/var/cache/apt/archives/*.deb "$cache/" 2> /dev/null

# 4. The tools in the chroot.
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
check "policyctl status" '^(trusted_for\(2\)|AT_EXECVE_CHECK|backend):' policyctl status
check "trusttop --help" '^Usage: trusttop' trusttop --help
check "audisp-trusted-for --help" '^usage: audisp-trusted-for' audisp-trusted-for --help
check "trusted-dash -c 'echo ok'" '^ok$' trusted-dash -c 'echo ok'
check "trusted-python3 --version" '^Python 3\.11' trusted-python3 --version
# Under AT_EXECVE_CHECK (mainline >= 6.14) the stock standard library (mode
# 644) is refused by design (trusted-python3(1), REQUIREMENTS); elsewhere
# (no interface: fallback rule; trusted_for: policy 0 here) it runs.
if in_chroot policyctl status 2>&1 | grep -q '^backend: *execve_check'; then
	output=$(in_chroot trusted-python3 -c 'print("ok")' 2>&1)
	rc=$?
	printf '%s\n' "$output" | sed 's/^/#   /'
	if [ "$rc" = 126 ] && printf '%s\n' "$output" | grep -q 'encodings/__init__.py: refused to interpret: no execute permission (AT_EXECVE_CHECK)'; then
		t_ok "trusted-python3 -c: stock stdlib refused under AT_EXECVE_CHECK (exit 126, as documented)"
	else
		t_fail "trusted-python3 -c under AT_EXECVE_CHECK: expected exit 126 naming encodings/__init__.py, got exit $rc"
	fi
else
	check "trusted-python3 -c 'print(\"ok\")'" '^ok$' trusted-python3 -c 'print("ok")'
fi
printf 'echo script-ok\n' > "$run/tmp/s.sh"
chmod 0755 "$run/tmp/s.sh"
check "trusted-dash /tmp/s.sh" '^script-ok$' trusted-dash /tmp/s.sh
check "libtrustedfor.so.1 in the ld.so cache" 'libtrustedfor\.so\.1 ' sh -c 'ldconfig -p | grep libtrustedfor' 
check "plugins.d conf is a conffile" '^ /etc/audit/plugins.d/audisp-trusted-for.conf ' \
	dpkg-query -W -f='${Conffiles}\n' trustfor-tools
check "man pages installed" 'policyctl\.8\.gz' sh -c 'dpkg -L trustfor-tools | grep /man/' 

# 5. Removal leaves nothing behind.
names=()
for d in "${debs[@]}"; do names+=("$(basename "$d" | sed 's/_.*//')"); done
if in_chroot apt-get purge -y -q "${names[@]}" >> "$log" 2>&1 &&
	[ ! -e "$run/etc/audit/plugins.d/audisp-trusted-for.conf" ] &&
	[ ! -e "$run/usr/sbin/policyctl" ]; then
	t_ok "apt-get purge removes the packages and their conffiles"
else
	t_fail "apt-get purge (see build/deb/check.log)"
fi

cleanup
# The run copy is kept only when something failed, for inspection.
if [ "$T_FAIL" = 0 ] && ! mountpoint -q "$run/proc"; then
	rm -rf --one-file-system "$run"
fi
t_done "$suite"
