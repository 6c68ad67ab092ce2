#!/bin/sh
# trusttop demo: start `trusttop -b`, run a small mixed workload through
# libtrustedfor (3 interpreters, allowed and denied checks), print the last
# snapshot. usage: demo.sh TRUSTTOP WORKLOAD   (root; `make -C trusttop demo`)
set -u
TRUSTTOP=$1 WORKLOAD=$2
D=$(mktemp -d /tmp/trusttop-demo.XXXXXX)
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; rm -rf "$D"' EXIT
for n in python3 perl dash; do cp "$WORKLOAD" "$D/$n"; done
printf '#!/bin/sh\n' > "$D/app.sh"; chmod 755 "$D/app.sh"
printf 'print(1)\n' > "$D/upload.py"; chmod 644 "$D/upload.py"
"$TRUSTTOP" -b -d 0.5 > "$D/out" 2> "$D/err" &
PID=$!
while [ ! -s "$D/out" ]; do
	kill -0 "$PID" 2>/dev/null || { cat "$D/err" >&2; exit 1; }
	sleep 0.1
done
"$D/python3" -c python3 -n 40 "$D/app.sh" > /dev/null
"$D/python3" -c gunicorn -n 7 "$D/upload.py" > /dev/null
"$D/perl" -c perl -n 12 "$D/app.sh" "$D/upload.py" > /dev/null
"$D/dash" -c dash -n 25 "$D/app.sh" > /dev/null
kill -TERM "$PID"; wait "$PID"; rc=$?; PID=
awk '/^trusttop - /{s=""} {s = s $0 "\n"} END{printf "%s", s}' "$D/out"
exit $rc
