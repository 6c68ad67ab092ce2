#!/bin/sh
# Run one cmocka test binary with TAP output and print its result line:
#   RESULT <suite> <passed> <failed> <skipped>
# usage: cmocka-result.sh SUITE BINARY [ARGS...]
exec "$(dirname "$0")/tap-result.sh" "$@"
