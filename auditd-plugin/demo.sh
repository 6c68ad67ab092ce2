#!/bin/sh
# make -C auditd-plugin demo: a private auditd with audisp-trusted-for in its
# plugins.d, a policy change, three "interpreters" (the test probe under
# the names python3, perl and dash) denied on scripts of a noexec mount, then
# the report of what they were denied. Runs in the trustfor VM (tests/vm/run)
# unless this kernel already has trusted_for.  fs.trust_policy and the
# mount are put back at exit (need, tests/lib/fixture.sh).
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if [ ! -e /proc/sys/fs/trust_policy ]; then
	echo "(this kernel has no trusted_for: running the demo in the trustfor VM)"
	exec tests/vm/run -- sh auditd-plugin/demo.sh
fi
SUITE=demo
. auditd-plugin/tests/vm-common.inc
need
say() { printf '\n$ %s\n' "$(printf '%s' "$*" | cat -v)"; "$@"; }

D=$(mktemp -d /tmp/tf-demo.XXXXXX)
setup_auditd "$D/audit" 5
start_auditd > /dev/null
echo "auditd $AUDITD_PID runs with $D/audit/plugins.d/audisp-trusted-for.conf:"
cat "$D/audit/plugins.d/audisp-trusted-for.conf"
mkdir -p "$D/bin"
for n in python3 perl dash; do cp "$PROBE" "$D/bin/$n"; done
fx_tmpfs "$D/srv/shared" noexec demo-shared
printf 'print("hi")\n' > "$D/srv/shared/report.py"
printf 'print "hi\\n";\n' > "$D/srv/shared/$(printf 'clean\033[2Jup.pl')"
printf 'echo hi\n' > "$D/srv/shared/backup.sh"
chmod 0755 "$D/srv/shared"/*

say sh -c "echo 3 > /proc/sys/fs/trust_policy"
say "$D/bin/python3" -n 3 "$D/srv/shared/report.py"
say "$D/bin/perl" -n 2 "$D/srv/shared/$(printf 'clean\033[2Jup.pl')"
say "$D/bin/dash" -n 5 "$D/srv/shared/backup.sh"
sleep 3
stop_auditd
say "$BIN" report --state "$D/audit/state/state.json" -i --table interpreter,file,reason,policy
