#!/bin/bash
# Every host suite (tests/run --host-only) again, on our patched Linux 6.1
# (the kernel Debian 12 users run, plus this series).  Proves that each host
# suite detects what the running kernel offers and skips, with its reason,
# what it lacks, instead of failing.  Here trusted_for and, since patch 6,
# AT_EXECVE_CHECK with the exec securebits are both present, so the suites
# take both paths on one kernel.
# The .deb suite is left out: it needs a Debian mirror, and the guest has
# no network; so is vmrun (tests/run leaves it out in the guest, which
# boots no VM of its own).  So are the suites that only read or build the tree (C and
# shell style, the parallel build): no kernel changes their result, and
# under TCG they would cost minutes.  Suite names get a "6.1:" prefix; the logs are in
# build/test-logs/host-on-6.1/.  Under TCG with ASan this takes about 25 min.
# vm-timeout: 3600
# vm-after: host
set -o pipefail
if [ -z "${TRUSTFOR_VM:-}" ]; then
	echo "host-suites-6.1: runs in the test VM (tests/run --vm-only host-suites-6.1)" >&2
	exit 2
fi
TF_TEST_LOGS=$PWD/build/test-logs/host-on-6.1 tests/run --host-only --no-deb --no-static 2>&1 |
	sed -e 's/^RESULT /RESULT 6.1:/' -e 's/^SKIPPED /SKIPPED 6.1:/'
