#!/bin/bash
# Make the disk image of the system suite (tests/system/run.sh): a whole
# Debian 12 system, debootstrapped (no host /, no 9p), with
#   - Debian's stock kernel (linux-image-amd64) and the trustfor kernel
#     package of make kernel-deb (build/kernel-deb/linux-image-*.deb), each
#     with its initramfs made by the package's own hooks (initramfs-tools);
#   - auditd, audispd-plugins, prometheus-node-exporter, apparmor;
#   - the project's packages (build/deb/*.deb, make deb), installed with
#     apt-get as an administrator would;
#   - the suite's guest side (tests/system/guest/): the check script and
#     its units.
# The image boots under qemu with each kernel's /boot/vmlinuz-* and
# /boot/initrd.img-*, copied out to build/system/boot/ (direct kernel boot;
# GRUB is not installed in the image).
#
#   build/system/base       debootstrap + the Debian packages, made once per
#                           package list and mirror, and kept (never modified)
#   build/system/apt-cache  every .deb downloaded (debootstrap's and apt's),
#                           kept: a second image needs no download
#   (both in $TF_SYSTEM_CACHE instead, when set)
#   build/system/root       this image's tree (rebuilt each time)
#   build/system/disk.img   the ext4 image (mkfs.ext4 -d: no loop mount)
#   build/system/boot/      the kernels and initramfs images
#   build/system/image.log  what debootstrap, apt and dpkg printed
# usage: tests/system/image.sh [--base]
#   --base  only the cached base system (downloads, no kernel or package
#           of the project needed yet)
# Exit status 0, or 1 with a one-line reason on stderr.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/mirror.sh"
out=$top/build/system
# The base and the downloads may live outside the tree, to outlive it
# (.ci/run keeps them in /var/cache/trustfor-system between CI runs).
keep=${TF_SYSTEM_CACHE:-$out}
base=$keep/base
root=$out/root
cache=$keep/apt-cache
log=$out/image.log
size=${TF_SYSTEM_DISK_SIZE:-4G}

# What Debian gives the system; the project's packages add their own
# dependencies when apt installs them.
packages=(systemd-sysv udev kmod initramfs-tools e2fsprogs
	auditd audispd-plugins prometheus-node-exporter apparmor
	python3 curl procps linux-image-amd64)

die() { echo "system image: $*" >&2; exit 1; }
say() { echo "# system image: $*"; }

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot)"
command -v debootstrap > /dev/null || die "debootstrap is not installed (apt-get install debootstrap)"

mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[$i]}" 2> /dev/null || umount -l "${mounted[$i]}" || true
	done
}
trap cleanup EXIT
# in_root DIR CMD...: CMD in the chroot DIR, with /proc, /sys and /dev
# (the kernel packages' initramfs hooks need them), a clean environment,
# and no daemon started (policy-rc.d).
chroot_mounts() {
	local dir=$1
	mount -t proc proc "$dir/proc" && mounted+=("$dir/proc")
	mount -t sysfs sys "$dir/sys" && mounted+=("$dir/sys")
	mount --bind /dev "$dir/dev" && mounted+=("$dir/dev")
	printf '#!/bin/sh\nexit 101\n' > "$dir/usr/sbin/policy-rc.d"
	chmod 0755 "$dir/usr/sbin/policy-rc.d"
}
chroot_umounts() {
	cleanup
	mounted=()
	rm -f "$1/usr/sbin/policy-rc.d"
}
in_root() {
	local dir=$1
	shift
	chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
apt_in() {
	local dir=$1
	shift
	in_root "$dir" apt-get -q -y -o Dir::Cache::Archives=/var/cache/trustfor-apt "$@"
}

mkdir -p "$out" "$cache/partial"
: > "$log"
mirror=$(debian_mirror)
want=$(printf '%s\n' "$mirror" "${packages[@]}" | sha256sum | cut -c1-16)

# 1. The base system, made once per package list.
if [ "$(cat "$base/.trustfor-ready" 2> /dev/null)" != "$want" ]; then
	say "debootstrap bookworm from $mirror, then ${packages[*]}"
	t0=$SECONDS
	rm -rf --one-file-system "$base" "$base.tmp"
	debootstrap --variant=minbase --cache-dir="$cache" bookworm "$base.tmp" "$mirror" >> "$log" 2>&1 ||
		{ tail -5 "$log" >&2; die "debootstrap failed (see ${log#"$top"/})"; }
	# The host's sources (main, updates, security), as the kernel source
	# came from them.
	if [ -f "$HOST_SOURCES" ]; then
		rm -f "$base.tmp/etc/apt/sources.list"
		cp "$HOST_SOURCES" "$base.tmp/etc/apt/sources.list.d/debian.sources"
	fi
	mkdir -p "$base.tmp/var/cache/trustfor-apt"
	mount --bind "$cache" "$base.tmp/var/cache/trustfor-apt" && mounted+=("$base.tmp/var/cache/trustfor-apt")
	chroot_mounts "$base.tmp"
	apt_in "$base.tmp" update >> "$log" 2>&1 || die "apt-get update in the image failed (see ${log#"$top"/})"
	apt_in "$base.tmp" install --no-install-recommends "${packages[@]}" >> "$log" 2>&1 ||
		{ tail -5 "$log" >&2; die "apt-get install in the image failed (see ${log#"$top"/})"; }
	chroot_umounts "$base.tmp"
	echo "$want" > "$base.tmp/.trustfor-ready"
	mv "$base.tmp" "$base"
	say "base system made in $((SECONDS - t0)) s"
fi

[ "${1:-}" != --base ] || exit 0

# 2. This image: a copy of the base, the project's packages and kernel.
kdeb=
for d in "$top"/build/kernel-deb/linux-image-*-trustfor_*.deb; do
	[ -e "$d" ] && kdeb=$d
done
[ -n "$kdeb" ] || die "no trustfor kernel package in build/kernel-deb/: run 'make kernel-deb' first"
debs=()
for d in "$top"/build/deb/*.deb; do
	case $d in *-dbgsym_*) ;; *) [ -e "$d" ] && debs+=("$d") ;; esac
done
[ ${#debs[@]} -gt 0 ] || die "no packages in build/deb/: run 'make deb' first"
t0=$SECONDS
rm -rf --one-file-system "$root"
cp -a "$base" "$root"
rm -f "$root/.trustfor-ready"
mount --bind "$cache" "$root/var/cache/trustfor-apt" && mounted+=("$root/var/cache/trustfor-apt")
chroot_mounts "$root"
mkdir -p "$root/tmp/debs"
cp "$kdeb" "${debs[@]}" "$root/tmp/debs/"
names=()
for d in "${debs[@]}"; do names+=("/tmp/debs/$(basename "$d")"); done
# The kernel package: dpkg -i, as README "Deploying the kernel" says; its
# postinst makes the initramfs with initramfs-tools.
in_root "$root" dpkg -i "/tmp/debs/$(basename "$kdeb")" >> "$log" 2>&1 ||
	{ tail -5 "$log" >&2; die "dpkg -i $(basename "$kdeb") failed in the image (see ${log#"$top"/})"; }
apt_in "$root" install --no-install-recommends "${names[@]}" >> "$log" 2>&1 ||
	{ tail -5 "$log" >&2; die "apt-get install of the project's packages failed (see ${log#"$top"/})"; }
rm -rf "$root/tmp/debs"

# The system around them: the root file system, a name, a machine id, a
# password-less root on the consoles (a test machine), and the metrics
# the way Debian's node exporter collects text files.
echo "LABEL=trustfor-root / ext4 defaults,errors=remount-ro 0 1" > "$root/etc/fstab"
echo trustfor-system > "$root/etc/hostname"
in_root "$root" systemd-machine-id-setup >> "$log" 2>&1
in_root "$root" passwd -d root >> "$log" 2>&1
sed -i 's|^#\?metrics_dir *=.*|metrics_dir = /var/lib/prometheus/node-exporter|' \
	"$root/etc/audit/audisp-trusted-for.conf"
grep -qx 'metrics_dir = /var/lib/prometheus/node-exporter' "$root/etc/audit/audisp-trusted-for.conf" ||
	die "could not set metrics_dir in the image's audisp-trusted-for.conf"

# The suite's guest side.
install -m 0755 "$top/tests/system/guest/check.sh" "$root/usr/local/sbin/trustfor-system-check"
install -m 0755 "$top/tests/demo/with-securebits" "$root/usr/local/bin/with-securebits"
install -m 0644 "$top"/tests/system/guest/*.service "$root/etc/systemd/system/"
for u in "$top"/tests/system/guest/*.service; do
	ln -sf "/etc/systemd/system/$(basename "$u")" \
		"$root/etc/systemd/system/multi-user.target.wants/$(basename "$u")"
done
chroot_umounts "$root"

# 3. The kernels out, the image made.
rm -rf "${out:?}/boot"
mkdir -p "$out/boot"
cp "$root"/boot/vmlinuz-* "$root"/boot/initrd.img-* "$out/boot/"
ls "$out"/boot/initrd.img-*-trustfor > /dev/null 2>&1 || die "the trustfor kernel package made no initramfs"
rm -f "$out/disk.img"
mkfs.ext4 -q -F -L trustfor-root -d "$root" "$out/disk.img" "$size" >> "$log" 2>&1 ||
	die "mkfs.ext4 -d failed (see ${log#"$top"/})"
say "image made in $((SECONDS - t0)) s: ${out#"$top"/}/disk.img ($(du -h "$out/disk.img" | cut -f1) used)," \
	"kernels $(cd "$out/boot" && ls vmlinuz-* | sed 's/^vmlinuz-//' | tr '\n' ' ')"
