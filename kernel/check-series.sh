#!/bin/bash
# Check the series the way a maintainer would: every patch passes
# scripts/checkpatch.pl --strict and the tree builds after each patch.
# Uses build/kernel/src (made by `make kernel`) read-only and a scratch
# worktree in build/kernel/series-check; takes one incremental kernel build
# per patch.
# usage: kernel/check-series.sh [--no-build]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/kernel/src
wt=$top/build/kernel/series-check
build=1
[ "${1:-}" = --no-build ] && build=0
[ -d "$src/.git" ] || { echo "check-series: run 'make kernel' first" >&2; exit 2; }

fail=0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	out=$(cd "$src" && scripts/checkpatch.pl --strict "$top/kernel/patches/$p" 2>&1 |
		grep -E '^total:' || true)
	case $out in
	*" 0 errors, 0 warnings"*) echo "checkpatch OK   $p ($out)" ;;
	*) echo "checkpatch FAIL $p ($out)"; fail=1 ;;
	esac
done < "$top/kernel/patches/series"

if [ $build = 1 ]; then
	git -C "$src" worktree remove --force "$wt" 2>/dev/null || true
	git -C "$src" worktree add -q --detach "$wt" debian-base
	cp "$src/.config" "$wt/.config"
	cc=gcc
	command -v ccache >/dev/null && cc="ccache gcc"
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		git -C "$wt" -c user.name=check -c user.email=check@trustfor.invalid \
			am -q "$top/kernel/patches/$p"
		if make -C "$wt" -s -j"$(nproc)" CC="$cc" olddefconfig bzImage \
			> "$wt.log" 2>&1; then
			echo "build OK        $p"
		else
			echo "build FAIL      $p (log: $wt.log)"
			fail=1
			break
		fi
	done < "$top/kernel/patches/series"
	git -C "$src" worktree remove --force "$wt"
fi
exit $fail
