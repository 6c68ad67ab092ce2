#!/bin/bash
# The system suite: trustfor on a whole Debian 12 system booted under qemu
# with systemd as PID 1, through each kernel package's own initramfs.
# Makes the image (tests/system/image.sh: debootstrap, Debian's stock
# kernel, the trustfor kernel package of make kernel-deb, auditd, node
# exporter, AppArmor, the project's packages of make deb), then boots it
# four times; at each boot tests/system/guest/check.sh checks the system
# from inside (its header lists the stages) and reboots or powers off:
#   boots 1, 2, 3  the trustfor kernel    boot 4  Debian's stock kernel
# The host checks what only comparing boots can tell: the release booted
# each time, Debian's default LSM list on both kernels, the plugin's counts
# carried across the reboot.  Each part's duration is printed ("# time").
# Prints "RESULT system P F"; a boot that does not finish its stage is a
# failure, with the tail of its console.
#
# usage: tests/system/run.sh      (root; after make kernel-deb and make deb)
#   TF_SYSTEM_TIMEOUT=SECONDS  per boot (default 900)
#   TF_SYSTEM_KEEP=1           keep build/system/root after a pass
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
suite=system
out=$top/build/system
logs=$out/logs
timeout=${TF_SYSTEM_TIMEOUT:-900}

die() {
	t_fail "$*"
	t_done "$suite"
	exit 1
}

[ "$(id -u)" = 0 ] || die "tests/system/run.sh must run as root (debootstrap, chroot)"
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 not found: apt-get install qemu-system-x86"
release=$(cat "$top/build/kernel-deb/release" 2> /dev/null) ||
	die "no trustfor kernel package: run 'make kernel-deb' first"

t0=$SECONDS
bash "$top/tests/system/image.sh" || die "the system image could not be made (above)"
echo "# time: image $((SECONDS - t0)) s"
stock=$(cd "$out/boot" && ls vmlinuz-*-amd64 2> /dev/null | sed 's/^vmlinuz-//' | sort -V | tail -n 1)
[ -n "$stock" ] || die "no stock Debian kernel (vmlinuz-*-amd64) in the image"
[ -r "$out/boot/vmlinuz-$release" ] || die "the image has no /boot/vmlinuz-$release"
rm -rf "$logs"
mkdir -p "$logs"

declare -A facts=()
# boot N RELEASE: boot the image with RELEASE's kernel and initramfs for
# stage N; count its results and keep its facts.
boot() {
	local n=$1 rel=$2 t=$SECONDS rc line res=$logs/results-$1.log con=$logs/console-$1.log
	: > "$res"
	timeout --foreground -k 10 "$timeout" qemu-system-x86_64 -accel tcg -m 2G -smp 2 \
		-display none -no-reboot -monitor none \
		-kernel "$out/boot/vmlinuz-$rel" -initrd "$out/boot/initrd.img-$rel" \
		-append "root=/dev/vda ro console=ttyS0 trustfor.stage=$n" \
		-drive "file=$out/disk.img,format=raw,if=virtio" \
		-device virtio-rng-pci \
		-serial "file:$con" -serial "file:$res" < /dev/null > "$logs/qemu-$n.log" 2>&1
	rc=$?
	echo "# time: boot $n ($rel) $((SECONDS - t)) s"
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		'ok - '*) t_ok "boot $n: ${line#ok - }" ;;
		'not ok - '*) t_fail "boot $n: ${line#not ok - }" ;;
		'fact '*) line=${line#fact }; facts[$n:${line%% *}]=${line#* } ;;
		'#'*) echo "$line" ;;
		esac
	done < "$res"
	if grep -q "^stage $n done" "$res"; then
		t_ok "boot $n ($rel) ran its stage to the end"
	else
		t_fail "boot $n ($rel) did not finish its stage (qemu exit $rc; console: ${con#"$top"/})"
		tail -n 15 "$con" | sed 's/^/# console: /'
		return 1
	fi
}

boot 1 "$release" || die "boot 1 failed: the later boots depend on it"
boot 2 "$release" || die "boot 2 failed: the later boots depend on it"
boot 3 "$release" || die "boot 3 failed: the stock-kernel boot depends on it"
boot 4 "$stock"

t_eq "boot 1 runs the trustfor kernel" "$release" "${facts[1:uname]:-}"
t_eq "boot 2 runs the trustfor kernel" "$release" "${facts[2:uname]:-}"
t_eq "boot 3 runs the trustfor kernel" "$release" "${facts[3:uname]:-}"
t_eq "boot 4 runs Debian's stock kernel" "$stock" "${facts[4:uname]:-}"
# Debian's default LSM list: the stock kernel's, from its own configuration.
t_eq "the trustfor kernel has the stock kernel's LSM list" "${facts[4:lsm]:-}" "${facts[1:lsm]:-}"
case ${facts[1:lsm]:-} in
*apparmor*) t_ok "AppArmor is in the LSM list (${facts[1:lsm]})" ;;
*) t_fail "AppArmor is not in the LSM list '${facts[1:lsm]:-}'" ;;
esac
# The counts across the reboot: what boot 1 counted, boot 2 found.
for api in trusted_for execve_check; do
	t_eq "$api refusals counted before the reboot are there after it" \
		"${facts[1:$api-stage1]:-}" "${facts[2:$api-after-reboot]:-}"
	# Each round refuses 2 runs per API (trusted-python3 and trusted-dash;
	# without and with SECBIT_EXEC_RESTRICT_FILE), in 5 + 3 + 2 rounds:
	# at least one record per refused run.
	if [ "${facts[2:$api-rotated]:-0}" -ge 20 ]; then
		t_ok "$api: ${facts[2:$api-rotated]} refusals counted in all (≥ 20 runs refused)"
	else
		t_fail "$api: ${facts[2:$api-rotated]:-none} refusals counted in all, fewer than the 20 runs refused"
	fi
done
[ -n "${TF_SYSTEM_KEEP:-}" ] || [ "$T_FAIL" != 0 ] || rm -rf --one-file-system "$out/root"
t_done "$suite"
