#!/bin/bash
# Build the trustfor kernel: Debian's linux-source-6.1 + kernel/patches,
# configured with tinyconfig + kernel/config/vm.config.
#
# Outputs (relied upon by the tools, tests and make demo):
#   build/kernel/src        the patched tree (a git repository, one commit
#                           per patch on top of the Debian source), built
#                           in place: build/kernel/src/vmlinux has the BTF
#   build/kernel/bzImage    the image booted by tests/vm/run
#   build/kernel/include    the uapi headers (make headers_install)
#   build/kernel/selftests  tools/testing/selftests/trusted_for binaries
#
# A changed patch or series resets the tree to the Debian commit and applies
# the series again with git am; git only rewrites the files that changed, so
# make rebuilds only what depends on them.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/kernel
src=$out/src
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${JOBS:-$(nproc)}
git_id=(-c user.name="trustfor build" -c user.email="build@trustfor.invalid"
	-c advice.detachedHead=false)

say() { printf 'kernel: %s\n' "$*"; }
die() { printf 'kernel: %s\n' "$*" >&2; exit 1; }

series_hash() {
	(cd "$top/kernel/patches" && cat series $(cat series)) | sha256sum | cut -d' ' -f1
}

extract() {
	[ -r "$tarball" ] ||
		die "$tarball not found: apt-get install linux-source-6.1"
	say "extracting $(basename "$tarball")"
	rm -rf "$src" "$out/src.tmp"
	mkdir -p "$out/src.tmp"
	tar -xJf "$tarball" -C "$out/src.tmp" --strip-components=1
	(
		cd "$out/src.tmp"
		git init -q
		# Debian's .gitignore ignores the whole top level: add by force.
		git add -f -A
		git "${git_id[@]}" commit -q -m "Debian linux-source-6.1"
		git tag debian-base
	)
	mv "$out/src.tmp" "$src"
}

apply_series() {
	local want
	want=$(series_hash)
	if [ -f "$out/series.applied" ] && [ "$(cat "$out/series.applied")" = "$want" ]; then
		return
	fi
	say "applying kernel/patches/series"
	(
		cd "$src"
		git am --abort >/dev/null 2>&1 || true
		git reset -q --hard debian-base
		while read -r p; do
			case $p in ''|'#'*) continue ;; esac
			git "${git_id[@]}" am -q --keep-cr "$top/kernel/patches/$p" ||
				die "patch $p does not apply"
		done < "$top/kernel/patches/series"
	)
	echo "$want" > "$out/series.applied"
}

configure() {
	local frag=$top/kernel/config/vm.config
	if [ -f "$src/.config" ] && [ -f "$out/config.applied" ] &&
		cmp -s "$frag" "$out/config.applied"; then
		return
	fi
	say "configuring: tinyconfig + kernel/config/vm.config"
	make -C "$src" -s tinyconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O . .config "$frag" >/dev/null)
	make -C "$src" -s olddefconfig >/dev/null
	# Every option of the fragment must have survived (dependencies).
	local missing=0 line
	while read -r line; do
		case $line in CONFIG_*=y) ;; *) continue ;; esac
		grep -qx "$line" "$src/.config" || { echo "kernel: $line did not apply" >&2; missing=1; }
	done < "$frag"
	[ $missing = 0 ] || die "kernel/config/vm.config has options whose dependencies are missing"
	cp "$frag" "$out/config.applied"
}

build() {
	local cc=gcc
	command -v ccache >/dev/null && cc="ccache gcc"
	say "building bzImage (-j$jobs)"
	make -C "$src" -s -j"$jobs" CC="$cc" bzImage
	cp -p "$src/arch/x86/boot/bzImage" "$out/bzImage.new"
	mv "$out/bzImage.new" "$out/bzImage"
	make -C "$src" -s headers_install INSTALL_HDR_PATH="$out" >/dev/null
	say "building the selftests"
	mkdir -p "$out/selftests"
	make -C "$src/tools/testing/selftests/trusted_for" -s \
		OUTPUT="$out/selftests" KHDR_INCLUDES="-isystem $out/include" \
		>/dev/null
}

mkdir -p "$out"
[ -d "$src/.git" ] && git -C "$src" rev-parse -q --verify debian-base >/dev/null || extract
apply_series
configure
build
say "done: $out/bzImage"
