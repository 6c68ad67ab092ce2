#!/bin/sh
# trusttop demo: start `trusttop -b`, run a small mixed workload through
# libtrustedfor (3 interpreters, allowed and denied checks), print the last
# snapshot. usage: demo.sh TRUSTTOP WORKLOAD   (root; `make -C trusttop demo`)
# shellcheck source-path=SCRIPTDIR/../tests/lib
set -u
LIB=$(dirname "$0")/../tests/lib
. "$LIB/wait.sh"
. "$LIB/trusttop.sh"
TRUSTTOP=$1 WORKLOAD=$2
D=$(mktemp -d /tmp/trusttop-demo.XXXXXX)
trap '[ -n "$TT_PID" ] && kill "$TT_PID" 2>/dev/null; rm -rf "$D"' EXIT
for n in python3 perl dash; do cp "$WORKLOAD" "$D/$n"; done
printf '#!/bin/sh\n' > "$D/app.sh"; chmod 755 "$D/app.sh"
printf 'print(1)\n' > "$D/upload.py"; chmod 644 "$D/upload.py"
tt_start "$D/out" "$D/err" 600 -b -d 0.5 || { cat "$D/err" >&2; exit 1; }
"$D/python3" -c python3 -n 40 "$D/app.sh" > /dev/null
"$D/python3" -c gunicorn -n 7 "$D/upload.py" > /dev/null
"$D/perl" -c perl -n 12 "$D/app.sh" "$D/upload.py" > /dev/null
"$D/dash" -c dash -n 25 "$D/app.sh" > /dev/null
tt_stop; rc=$?
tt_last_snapshot "$D/out"
exit $rc
