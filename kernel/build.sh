#!/bin/bash
# Build a trustfor kernel: Debian's linux-source-6.1 + kernel/patches,
# configured with tinyconfig + config fragments.
#
# usage: kernel/build.sh [--debug | --deb | --deb-full-check]
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
# --deb (make kernel-deb): Debian binary packages (linux-image-*,
# linux-headers-*, linux-libc-dev) of the same patched source, configured
# from Debian's own amd64 configuration, in build/kernel-deb/:
#   KCONFIG=FILE    the base configuration (plain or .xz); default: the
#                   linux-config-6.1 package's config.amd64_none_amd64.xz
#   LOCALMOD=FILE   an lsmod listing: "make localmodconfig" keeps only the
#                   modules it names (and what they need): a faster build
#                   for one machine (kernel/config/qemu-lsmod.txt: the
#                   system suite's VM)
#   KDEB_COMPRESS=  dpkg-deb's compressor (default xz; gzip is quicker)
#   KDEB_CACHE=DIR  keep the packages in DIR/<key>, and take them from
#                   there instead of building when the key is the same;
#                   default $TF_SYSTEM_CACHE/kernel-deb when that is set
#                   (.ci/run).  The key is a hash of every input: the
#                   source tarball, the series, the resolved .config (which
#                   names the compiler's version), the package version,
#                   KDEB_COMPRESS, pahole's version and this script.  The
#                   two newest keys are kept.
# kernel/config/deb.config is merged on top (the series' options; modules
# signed with a key made at build time) and must apply as written, like the
# VM fragments.  The release is <upstream>-trustfor ("uname -r"), the
# package version <Debian's source version>+trustfor<N>: both tell it from
# Debian's kernels, which it installs beside.  The tree
# (build/kernel-deb/src) stays clean: the build goes to build/kernel-deb/obj
# (O=).
#
# --deb-full-check (tests/run's kernel-debconfig suite): Debian's full
# configuration, no module left out, in build/kernel-deb/full (O=, the same
# tree); compiles every object of fs/ (its top level), kernel/audit*,
# kernel/sys_ni, security/ and arch/x86/entry/ that this configuration
# builds, which covers every file the series touches and every user of the
# headers it changes there.  Prints "RESULT kernel-debconfig P F".
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
--deb) flavour=deb ;;
--deb-full-check) flavour=deb-full ;;
*) echo "usage: kernel/build.sh [--debug | --deb | --deb-full-check]" >&2; exit 2 ;;
esac
case $flavour in
debug) out=$top/build/kernel-debug ;;
deb|deb-full) out=$top/build/kernel-deb ;;
*) out=$top/build/kernel ;;
esac
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

# check_fragment FRAGMENT [CONFIG]: every option of FRAGMENT has the value
# it asks for in CONFIG (default: the tree's .config); prints the ones that
# do not and returns 1.
check_fragment() {
	local frag=$1 config=${2:-$src/.config} name line opt want bad=0
	name=$(frag_name "$frag")
	while read -r line; do
		case $line in
		CONFIG_*=n) opt=${line%%=*} want=unset ;;
		'# CONFIG_'*' is not set') opt=${line#'# '} opt=${opt%' is not set'} want=unset ;;
		CONFIG_*=*) opt=${line%%=*} want=$line ;;
		*) continue ;;
		esac
		if [ "$want" = unset ]; then
			grep -q "^$opt=" "$config" || continue
		else
			grep -qxF "$want" "$config" && continue
		fi
		echo "kernel: $name: $line did not apply (.config has:" \
			"$(grep -E "^$opt=|^# $opt is not set" "$config" || echo "nothing"))" >&2
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
	local cc
	ccache_cc
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

# The Debian configuration: KCONFIG, else linux-config-6.1's amd64 one.
deb_base_config() {
	local base=${KCONFIG:-/usr/src/linux-config-6.1/config.amd64_none_amd64.xz}
	[ -r "$base" ] || die "no base configuration $base: apt-get install linux-config-6.1, or KCONFIG=FILE"
	case $base in
	*.xz) xz -dc "$base" ;;
	*) cat "$base" ;;
	esac
}

# The package version: Debian's source version of the tarball, +trustforN
# where N counts the series' patches (a new series, a new version).
deb_version() {
	local v n
	v=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) || v=
	[ -n "$v" ] || v=$(make -s -C "$src" kernelversion)-1
	n=$(grep -cvE '^(#|$)' "$top/kernel/patches/series")
	echo "${v}+trustfor$n"
}

# configure_deb DIR [LSMOD]: Debian's configuration (trimmed to LSMOD's
# modules) + kernel/config/deb.config into DIR/.config.
configure_deb() {
	local dir=$1 lsmod=${2:-} frag=$top/kernel/config/deb.config
	mkdir -p "$dir"
	{
		deb_base_config
		[ -z "$lsmod" ] || cat "$lsmod"
		cat "$frag"
	} > "$dir/config.wanted"
	if [ -f "$dir/.config" ] && cmp -s "$dir/config.wanted" "$dir/config.applied" 2>/dev/null; then
		rm -f "$dir/config.wanted"
		return
	fi
	say "configuring ${dir#"$top"/}: Debian's configuration${lsmod:+ + localmodconfig ($lsmod)} + kernel/config/deb.config"
	rm -f "$dir/config.applied"
	deb_base_config > "$dir/.config"
	make -C "$src" O="$dir" -s olddefconfig >/dev/null
	if [ -n "$lsmod" ]; then
		make -C "$src" O="$dir" -s LSMOD="$lsmod" localmodconfig >/dev/null 2>"$dir/localmodconfig.log" ||
			{ cat "$dir/localmodconfig.log" >&2; die "localmodconfig with $lsmod failed"; }
	fi
	(cd "$dir" && "$src/scripts/kconfig/merge_config.sh" -m -O . .config "$frag" >/dev/null)
	make -C "$src" O="$dir" -s olddefconfig >/dev/null
	check_fragment "$frag" "$dir/.config" ||
		die "kernel/config/deb.config has options that did not apply (above)"
	mv "$dir/config.wanted" "$dir/config.applied"
}

# The compiler, through ccache when it is there.  Kbuild's command lines
# hold absolute paths in O= builds (-I $src/include), and gcc -g records
# the working directory: with the paths made relative to the repository
# and the working directory left out of the hash, a clone of the
# repository in another folder (CI's) finds the objects of this one in the
# cache.  (The debug information then names the folder of the build that
# filled the cache.)  Sets cc.
ccache_cc() {
	cc=gcc
	if command -v ccache >/dev/null; then
		export CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=true
		cc="ccache gcc"
	fi
}

# deb_key VERSION COMPRESS: the package cache's key, a hash of every input
# of the build (see KDEB_CACHE above), and what it was made of in
# $out/obj/cache-inputs.
deb_key() {
	{
		printf 'version %s\ncompress %s\n' "$1" "$2"
		printf 'tarball %s\n' "$(sha256sum < "$tarball" | cut -d' ' -f1)"
		printf 'series %s\n' "$(series_hash)"
		printf 'config %s\n' "$(sha256sum < "$out/obj/.config" | cut -d' ' -f1)"
		printf 'build.sh %s\n' "$(sha256sum < "$top/kernel/build.sh" | cut -d' ' -f1)"
		printf 'pahole %s\n' "$(pahole --version 2>/dev/null || echo none)"
	} > "$out/obj/cache-inputs"
	sha256sum < "$out/obj/cache-inputs" | cut -c1-16
}

# deb_from_cache DIR: the packages of DIR into $out; false if DIR is not
# a complete entry.
deb_from_cache() {
	local d=$1 f
	[ -f "$d/complete" ] || return 1
	for f in "$d"/*.deb "$d/release"; do
		cp -p "$f" "$out/" || return 1
	done
	touch "$d"	# the newest use: kept longest
}

# deb_to_cache DIR: the packages just built into DIR (a new entry, made
# whole before it is named); the older entries but one removed.
deb_to_cache() {
	local d=$1 cache old
	cache=$(dirname "$d")
	mkdir -p "$cache"
	rm -rf "$d.tmp"
	mkdir "$d.tmp"
	if ! { cp -p "$out"/*.deb "$out/release" "$out/obj/cache-inputs" "$d.tmp/" &&
		touch "$d.tmp/complete" && rm -rf "$d" && mv "$d.tmp" "$d"; }; then
		rm -rf "$d.tmp"
		say "warning: could not keep the packages in $d (disk full?): the next build builds them again"
		return 0
	fi
	say "packages kept in $d"
	# shellcheck disable=SC2012 # the cache's own names: hex, no spaces
	ls -1dt "$cache"/*/ 2>/dev/null | tail -n +3 | while read -r old; do
		rm -rf "${old%/}"
	done
}

build_deb() {
	local obj=$out/obj lsmod="" cc version key="" cache compress=${KDEB_COMPRESS:-xz}
	cache=${KDEB_CACHE:-${TF_SYSTEM_CACHE:+$TF_SYSTEM_CACHE/kernel-deb}}
	ccache_cc
	if [ -n "${LOCALMOD:-}" ]; then
		lsmod=$(realpath "$LOCALMOD" 2>/dev/null) && [ -r "$lsmod" ] ||
			die "LOCALMOD=$LOCALMOD: no such lsmod listing"
	fi
	configure_deb "$obj" "$lsmod"
	version=$(deb_version)
	rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes "$out/release"
	if [ -n "$cache" ]; then
		key=$(deb_key "$version" "$compress")
		if deb_from_cache "$cache/$key"; then
			say "packages $version from $cache/$key (built from these same inputs on $(date -r "$cache/$key/cache-inputs" "+%F %R")): nothing to build"
			say "done: $(cd "$out" && ls ./*.deb | tr '\n' ' ')"
			return
		fi
	fi
	say "building Debian packages $version in ${obj#"$top"/} (-j$jobs)"
	make -C "$src" O="$obj" -s -j"$jobs" CC="$cc" LOCALVERSION=-trustfor \
		KDEB_PKGVERSION="$version" KDEB_COMPRESS="$compress" \
		KBUILD_BUILD_USER=trustfor KBUILD_BUILD_HOST=trustfor.invalid \
		bindeb-pkg
	# bindeb-pkg writes the packages next to the output folder.
	ls "$out"/linux-image-*.deb >/dev/null 2>&1 ||
		die "bindeb-pkg made no linux-image package"
	echo "$(make -s -C "$src" O="$obj" LOCALVERSION=-trustfor kernelrelease)" > "$out/release"
	[ -z "$key" ] || deb_to_cache "$cache/$key"
	say "done: $(cd "$out" && ls ./*.deb | tr '\n' ' ')"
}

# The full Debian configuration: every object of the directories the series
# touches that this configuration builds, compiled (no link, no modules
# elsewhere).
deb_full_check() {
	local full=$out/full cc objs=() f o pass=0 fail=0 log
	ccache_cc
	configure_deb "$full"
	log=$full/compile.log
	say "compiling the series' directories under Debian's full configuration in ${full#"$top"/} (-j$jobs)"
	make -C "$src" O="$full" -s -j"$jobs" CC="$cc" KCFLAGS=-g0 prepare > "$log" 2>&1 ||
		{ tail -20 "$log"; echo "RESULT kernel-debconfig 0 1"; exit 1; }
	# The objects this configuration builds in those directories: the ones
	# kbuild's dry run of the directories would compile (an object named
	# on the command line is compiled whatever the configuration says).
	# The dry run names only what is out of date: the objects of a run
	# before go first (ccache has them), so every run compiles them all.
	find "$full/fs" -maxdepth 1 -name '*.o' -delete 2>/dev/null || true
	find "$full/kernel" -maxdepth 1 \( -name 'audit*.o' -o -name sys_ni.o \) -delete 2>/dev/null || true
	find "$full/security" "$full/arch/x86/entry" -name '*.o' -delete 2>/dev/null || true
	while read -r o; do
		objs+=("$o")
	done < <(make -C "$src" O="$full" -n -k CC="$cc" fs/ kernel/ security/ arch/x86/entry/ 2>/dev/null |
		grep -oE ' -o [^ ;]+\.o ' | awk '{ print $2 }' |
		grep -E '^(fs/[^/]+|kernel/audit[^/]*|kernel/sys_ni|security/.+|arch/x86/entry/.+)\.o$' | sort -u)
	[ ${#objs[@]} -gt 0 ] ||
		{ echo "not ok - kbuild's dry run names no object to compile"; echo "RESULT kernel-debconfig 0 1"; exit 1; }
	# -k, so one error does not hide another; its status is read from the
	# log below.  KCFLAGS=-g0: no debug information, which only a link
	# would use (the configuration itself is Debian's, debug options
	# included).
	make -C "$src" O="$full" -k -j"$jobs" CC="$cc" KCFLAGS=-g0 "${objs[@]}" >> "$log" 2>&1 || true
	# What must have been compiled: the series' own objects, and what
	# uses its headers in those directories under this configuration.
	for o in fs/exec.o fs/trusted_for.o kernel/audit.o kernel/auditsc.o \
		kernel/sys_ni.o security/commoncap.o security/security.o \
		arch/x86/entry/syscall_64.o arch/x86/entry/syscall_32.o \
		security/apparmor/domain.o security/selinux/hooks.o; do
		if [ -s "$full/$o" ] && [ "$full/$o" -nt "$full/config.applied" ]; then
			echo "ok - $o compiled"
			pass=$((pass + 1))
		else
			echo "not ok - $o not compiled (see ${log#"$top"/})"
			fail=$((fail + 1))
		fi
	done
	# Any error; a warning in a file the series touches (a warning that
	# Debian's own build gives elsewhere is not the series').
	# shellcheck disable=SC2046 # series names one patch a line, no spaces
	(cd "$top/kernel/patches" && sed -n 's|^+++ b/||p' $(grep -vE '^(#|$)' series)) |
		sort -u > "$full/touched"
	if grep -E 'error:|\*\*\* ' "$log" > "$full/diagnostics" ||
		grep -E 'warning:' "$log" | grep -F -f "$full/touched" > "$full/diagnostics"; then
		sed 's/^/# /' "$full/diagnostics"
		echo "not ok - the compiler reported errors, or warnings in the series' files (above)"
		fail=$((fail + 1))
	else
		echo "ok - no compiler error, no warning in the series' files ($(grep -c 'warning:' "$log" || true) warnings elsewhere)"
		pass=$((pass + 1))
	fi
	echo "# ${#objs[@]} objects built by this configuration in those directories, compiled"
	echo "RESULT kernel-debconfig $pass $fail"
	[ $fail = 0 ]
}

mkdir -p "$out"
[ -d "$src/.git" ] && git -C "$src" rev-parse -q --verify debian-base >/dev/null || extract
apply_series
case $flavour in
deb) build_deb ;;
deb-full) deb_full_check ;;
*)
	configure
	build
	say "done: $out/bzImage"
	;;
esac
