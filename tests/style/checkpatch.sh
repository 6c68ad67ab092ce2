#!/bin/bash
# The kernel's style checker over trustfor's user-space C (and BPF) files.
#
# Each tracked *.c / *.h outside kernel/ is one test: it passes when
# scripts/checkpatch.pl -f reports nothing but the message types ignored
# below.  The kernel series itself is held to --strict by its own review
# (kernel/patches: checkpatch --strict clean); user space uses the default
# level, as the kernel does for files outside its strict subsystems.
#
# checkpatch.pl comes from the patched tree `make kernel` unpacks
# (build/kernel/src), else from Debian's linux-source-6.1 tarball,
# else $TF_CHECKPATCH.  Without any of them the suite fails: CI always has
# the kernel tree.
#
# usage: tests/style/checkpatch.sh [FILE...]   (default: every C file)
# Prints "RESULT style P F" and, for each failing file, checkpatch's lines.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

# Message types that do not apply to user space, and why.
ignore=(
	PREFER_KERNEL_TYPES	# u32 & co. are kernel types: user space has <stdint.h>
	CAMELCASE		# names of ncurses, libbpf, json-c and CPython
	ARRAY_SIZE		# the kernel's ARRAY_SIZE() macro does not exist here
	ENOSYS			# the tools handle the ENOSYS kernels return
	USE_NEGATIVE_ERRNO	# user space returns -1 and sets errno
	VOLATILE		# volatile sig_atomic_t (C11), BPF's const volatile rodata
	GLOBAL_INITIALISERS	# BPF rodata must be initialised, even to 0
	EMBEDDED_FUNCTION_NAME	# "usage: ..." texts are not function names
	PREFER_DEFINED_ATTRIBUTE_MACRO	# __packed & co. are kernel macros
	SPLIT_STRING		# messages wrap at 100 columns; tests hold long data
	STRING_FRAGMENTS	# "\xe2" "abc": a hex escape ends only at a new literal
	STATIC_CONST_CHAR_ARRAY	# mkstemp() templates and argv arrays are writable
	SYMBOLIC_PERMS		# POSIX names for mode bits read better in tests of them
	AVOID_EXTERNS		# the fuzzer declares the __real_ symbols of --wrap
	QUOTED_WHITESPACE_BEFORE_NEWLINE # audit and Prometheus lines end so
	SPDX_LICENSE_TAG	# user-space files state their licence in their header
	FILE_PATH_CHANGES
)

checkpatch=${TF_CHECKPATCH:-}
if [ -z "$checkpatch" ] && [ -f build/kernel/src/scripts/checkpatch.pl ]; then
	checkpatch=build/kernel/src/scripts/checkpatch.pl
fi
tarball=/usr/src/linux-source-6.1.tar.xz
if [ -z "$checkpatch" ] && [ -f "$tarball" ]; then
	dir=build/style
	if [ ! -f "$dir/scripts/checkpatch.pl" ]; then
		mkdir -p "$dir" &&
		tar -xJf "$tarball" -C "$dir" --strip-components=1 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' || exit 1
	fi
	checkpatch=$dir/scripts/checkpatch.pl
fi
if [ -z "$checkpatch" ] || [ ! -f "$checkpatch" ]; then
	echo "# style: no checkpatch.pl: run 'make kernel' (or install linux-source-6.1)"
	echo "RESULT style 0 1"
	exit 1
fi

if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files '*.c' '*.h' | grep -v '^kernel/')
fi
types=$(IFS=,; echo "${ignore[*]}")
# One checkpatch run over every file (a perl start per file costs a second);
# its terse lines start with "FILE:LINE: ".
# It runs from an empty folder: in a git tree it would leave a
# .checkpatch-camelcase.git.* cache behind.
case $checkpatch in /*) ;; *) checkpatch=$top/$checkpatch ;; esac
cwd=$(mktemp -d) || exit 2
out=$(cd "$cwd" && perl "$checkpatch" --no-tree --terse --show-types -f \
	--ignore "$types" "${files[@]/#/$top/}" 2>&1 | grep -a -v '^total: ' |
	sed "s|^$top/||")
rm -rf "$cwd"
bad=$(printf '%s\n' "$out" | sed -n 's/^\([^:]*\):[0-9]*: .*/\1/p' | sort -u)
fail=0
for f in "${files[@]}"; do
	if printf '%s\n' "$bad" | grep -qxF -- "$f"; then
		fail=$((fail + 1))
	fi
done
pass=$((${#files[@]} - fail))
# Lines checkpatch printed that name no file: it did not run as meant.
if printf '%s\n' "$out" | grep -a -v -E '^([^:]*:[0-9]*: |$)' | grep -q .; then
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "# style: checkpatch.pl did not run cleanly"
	fail=$((fail + 1))
fi
[ -n "$bad" ] && printf '%s\n' "$out" | grep -a -E '^[^:]*:[0-9]*: ' | sed 's/^/# /'
echo "RESULT style $pass $fail"
[ "$fail" = 0 ]
