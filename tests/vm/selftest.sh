#!/bin/bash
# tests/vm/run's own test, on the real VM: a checkout below a directory
# the guest mounts a fresh tmpfs on (/tmp here), run from a directory
# outside it, still finds its init's command file and runs the command
# where it was asked, with the checkout readable.  (The init used to hide
# the checkout under the tmpfs: "vm init: no command file", status 125.)
# Host suite "vmrun"; needs build/kernel/bzImage (make kernel).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
SUITE=vmrun

kernel=$top/build/kernel/bzImage
if [ ! -r "$kernel" ]; then
	t_fail "no kernel image $kernel: run 'make kernel' first"
	t_done "$SUITE"
	exit 1
fi
# The copy: only what tests/vm/run needs of a checkout.
D=$(mktemp -d /tmp/tf-vmrun.XXXXXX)
outside=$(mktemp -d /var/lib/tf-vmrun-cwd.XXXXXX)
trap 'rm -rf "$D" "$outside"' EXIT
mkdir -p "$D/tests/vm"
cp "$top/tests/vm/run" "$top/tests/vm/init" "$D/tests/vm/"
echo "a file of the checkout" > "$D/marker"

out=$(cd "$outside" && "$D/tests/vm/run" -t 600 --kernel "$kernel" -- \
	sh -c 'pwd; cat "$1"; echo written > here' sh "$D/marker" 2>&1)
rc=$?
t_eq "a checkout under /tmp, run from $outside: the command's status" 0 "$rc"
t_eq "the command ran in the directory it was run from" "$outside" "$(echo "$out" | sed -n 1p)"
t_eq "the checkout is readable below the guest's /tmp" "a file of the checkout" "$(echo "$out" | sed -n 2p)"
t_eq "what it wrote there is on the host" written "$(cat "$outside/here" 2> /dev/null)"
[ "$rc" = 0 ] || echo "$out" | tail -5 | sed 's/^/# /'
t_done "$SUITE"
