#!/bin/sh
# The kernel's own tests of the trusted_for series (kselftest harness), run
# as root on the patched kernel.
exec tests/lib/tap-result.sh kernel-selftests build/kernel/selftests/trusted_for_test
