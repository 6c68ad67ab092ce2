#!/bin/bash
# Build a trustfor kernel: Debian's linux-source-6.1 + kernel/patches,
# configured with tinyconfig + config fragments.
#
# usage: kernel/build.sh [--debug]
#
# Default (make kernel): tinyconfig + kernel/config/vm.config, in build/kernel.
# Outputs (relied upon by the tools, tests and make demo):
#   build/kernel/src        the patched tree (a git repository, one commit
#                           per patch on top of the Debian source), built
#                           in place: build/kernel/src/vmlinux has the BTF
#   build/kernel/bzImage    the image booted by tests/vm/run
#   build/kernel/include    the uapi headers (make headers_install)
#   build/kernel/selftests  tools/testing/selftests/trusted_for binaries
#
# --debug (make kernel-debug): the same outputs in build/kernel-debug, from
# its own tree, configured with tinyconfig + the selftests' own fragment
# (tools/testing/selftests/trusted_for/config of the patched tree) +
# kernel/config/boot.config (what booting tests/vm/run needs) +
# kernel/config/debug.config (KASAN, lockdep, kmemleak...): it proves the
# selftests' fragment is enough, and runs them under the debug checks
# (tests/vm/cases/kernel-debug.sh).
#
# Every option of every fragment must be in the final .config as written
# (a CONFIG_X=n or "# CONFIG_X is not set" line: X not set): an option
# whose dependencies are missing, or that a later fragment overrides,
# fails the build.
#
# A changed patch or series resets the tree to the Debian commit and applies
# the series again with git am; git only rewrites the files that changed, so
# make rebuilds only what depends on them.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
flavour=vm
case ${1:-} in
'') ;;
--debug) flavour=debug ;;
*) echo "usage: kernel/build.sh [--debug]" >&2; exit 2 ;;
esac
if [ $flavour = debug ]; then
	out=$top/build/kernel-debug
else
	out=$top/build/kernel
fi
src=$out/src
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${JOBS:-$(nproc)}
git_id=(-c user.name="trustfor build" -c user.email="build@trustfor.invalid"
	-c advice.detachedHead=false)

say() { printf 'kernel: %s\n' "$*"; }
die() { printf 'kernel: %s\n' "$*" >&2; exit 1; }

# The fragments merged onto tinyconfig, in order (later ones win).
fragments() {
	if [ $flavour = debug ]; then
		echo "$src/tools/testing/selftests/trusted_for/config"
		echo "$top/kernel/config/boot.config"
		echo "$top/kernel/config/debug.config"
	else
		echo "$top/kernel/config/vm.config"
	fi
}

# A fragment's name in messages: relative to the repository or the tree.
frag_name() {
	case $1 in
	"$src"/*) echo "${1#"$src"/} (patched tree)" ;;
	"$top"/*) echo "${1#"$top"/}" ;;
	*) echo "$1" ;;
	esac
}

series_hash() {
	# shellcheck disable=SC2046 # series names one patch a line, no spaces
	(cd "$top/kernel/patches" && cat series $(cat series)) | sha256sum | cut -d' ' -f1
}

extract() {
	[ -r "$tarball" ] ||
		die "$tarball not found: apt-get install linux-source-6.1"
	say "extracting $(basename "$tarball") into ${out#"$top"/}"
	rm -rf "$src" "$out/src.tmp" "$out/series.applied" "$out/config.applied"
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

# check_fragment FRAGMENT: every option of FRAGMENT has the value it asks
# for in .config; prints the ones that do not and returns 1.
check_fragment() {
	local frag=$1 name line opt want bad=0
	name=$(frag_name "$frag")
	while read -r line; do
		case $line in
		CONFIG_*=n) opt=${line%%=*} want=unset ;;
		'# CONFIG_'*' is not set') opt=${line#'# '} opt=${opt%' is not set'} want=unset ;;
		CONFIG_*=*) opt=${line%%=*} want=$line ;;
		*) continue ;;
		esac
		if [ "$want" = unset ]; then
			grep -q "^$opt=" "$src/.config" || continue
		else
			grep -qxF "$want" "$src/.config" && continue
		fi
		echo "kernel: $name: $line did not apply (.config has:" \
			"$(grep -E "^$opt=|^# $opt is not set" "$src/.config" || echo "nothing"))" >&2
		bad=1
	done < "$frag"
	return $bad
}

configure() {
	local frag list=() names=() missing=0
	while read -r frag; do
		[ -r "$frag" ] || die "no config fragment $(frag_name "$frag")"
		list+=("$frag")
		names+=("$(frag_name "$frag")")
	done < <(fragments)
	# What the tree was configured with: the fragments' contents, in order.
	for frag in "${list[@]}"; do cat "$frag"; done > "$out/config.wanted"
	if [ -f "$src/.config" ] && [ -f "$out/config.applied" ] &&
		cmp -s "$out/config.wanted" "$out/config.applied"; then
		rm -f "$out/config.wanted"
		return
	fi
	say "configuring: tinyconfig + $(IFS=,; echo "${names[*]}" | sed 's/,/ + /g')"
	rm -f "$out/config.applied"
	make -C "$src" -s tinyconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O . .config "${list[@]}" >/dev/null)
	make -C "$src" -s olddefconfig >/dev/null
	# Every option of every fragment must have survived (dependencies,
	# and no fragment undoing another's).
	for frag in "${list[@]}"; do
		check_fragment "$frag" || missing=1
	done
	[ $missing = 0 ] || die "config fragments have options that did not apply (above)"
	mv "$out/config.wanted" "$out/config.applied"
}

build() {
	local cc=gcc
	command -v ccache >/dev/null && cc="ccache gcc"
	say "building bzImage in ${out#"$top"/} (-j$jobs)"
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
