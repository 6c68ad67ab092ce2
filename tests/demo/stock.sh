#!/bin/bash
# The demo's second part, on this machine's own kernel (tests/demo/run
# runs it after the VM story): a stock kernel (Linux 6.14 or later) has
# execveat(AT_EXECVE_CHECK) and the exec securebits but writes no audit
# record of a refusal; trustfor-relay writes one (type 2650), which
# auditd keeps and audisp-trusted-for counts beside the kernel's.
# On any other kernel it says why there is nothing to show, and exits 0.
# As root, after make tools; the auditd of this part is a private one (its
# own configuration and log in a temporary directory), never the machine's.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
U=${TF_BUILD:-$top/build/user}
RELAY=$U/relay/trustfor-relay
PLUGIN=$U/auditd-plugin/audisp-trusted-for
PY=$U/interpreters/trusted-python3
DASH=$U/interpreters/trusted-dash
PROBE=$U/tests/probe/probe
WITH=$top/tests/demo/with-securebits
export LC_ALL=C.UTF-8 TZ=UTC

# shellcheck source=steps.sh
. tests/demo/steps.sh
. tests/lib/wait.sh
. tests/lib/auditd.sh
. tests/lib/fixture.sh
. tests/lib/relay.sh

for b in "$RELAY" "$PLUGIN" "$PY" "$DASH" "$PROBE"; do
	[ -x "$b" ] || { echo "demo: $b is missing: run 'make tools'" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "demo: the stock-kernel part needs root (BPF, auditd)" >&2; exit 1; }

printf '\n%sThe stock-kernel part, on this machine: Linux %s%s\n' "$bold" "$(uname -r)" "$off"
# nothing DETAIL: this kernel has nothing for this part to show
nothing() { printf 'Nothing to show on this kernel: %s.\n' "$*"; exit 0; }
case $("$PROBE" --kernel 2> /dev/null) in
*trusted_for*)
	nothing "it is trustfor's kernel, which logs AT_EXECVE_CHECK refusals itself (record 1350, the story above); trustfor-relay is for stock kernels" ;;
*execve_check*) ;;
*)
	nothing "it has no execveat(AT_EXECVE_CHECK) (Linux 6.14 and later have it): no interpreter can ask, nothing to relay" ;;
esac
apid=$(auditctl -s 2> /dev/null | sed -n 's/^pid //p')
if [ -n "$apid" ] && [ "$apid" != 0 ] && kill -0 "$apid" 2> /dev/null; then
	nothing "auditd (pid $apid) is this machine's audit daemon, and this part would have to take its place; with that auditd, 'systemctl enable --now trustfor-relay' does the same"
fi

fx_tmpdir /tmp/tf-demo-stock.XXXXXX
D=$FX_DIR
fx_at_exit relay_kill
fx_at_exit 'auditd_kill; wait_for 10 eval "! pgrep -f \"$D/tf.conf\" > /dev/null"'

# Scripts: one on a noexec mount, one without the x bit, one trusted.
mkdir -p "$D/uploads" "$D/tools" "$D/home"
fx_noexec_tmpfs "$D/uploads" tf-demo-uploads
printf 'print("payload: ran")\n' > "$D/uploads/payload.py"
printf 'echo "payload: ran"\n' > "$D/uploads/payload.sh"
printf 'print("report: 42 lines")\n' > "$D/tools/report.py"
printf 'print("new: ran")\n' > "$D/home/new.py"
chmod 0755 "$D/uploads/payload.py" "$D/uploads/payload.sh" "$D/tools/report.py"
chmod 0644 "$D/home/new.py"

# auditd with audisp-trusted-for in its plugins.d, its metrics written
# where a node exporter's textfile collector would read them.
mkdir -p "$D/audit" "$D/state" "$D/prom"
auditd_conf "$D/audit" RAW
printf '%s\n' "state_file = $D/state/state.json" "save_interval = 1" \
	"eoe_timeout = 1" "metrics_dir = $D/prom" > "$D/tf.conf"
auditd_plugin "$D/audit" "$PLUGIN" "$D/tf.conf"
auditd_start "$D/audit" 30 || { echo "demo: auditd did not start: $(cat "$D/audit/auditd.out")" >&2; exit 1; }
LOG=$D/audit/log/audit.log
# records: the refusal records of the log, the kernel's (1350) and the
# relay's (2650; its op=lost records are not refusals)
records() { ausearch --raw -m 1350,2650 -if "$LOG" 2> /dev/null | grep -v ' op=lost ' | grep -c ' res=0 '; }

shows "This kernel has AT_EXECVE_CHECK and the exec securebits: under SECBIT_EXEC_RESTRICT_FILE the interpreters refuse what the kernel refuses (exit status 126), even report.py, whose Python library is mode 0644 on Debian; and the kernel writes no audit record of any of it"
run "$WITH" 0x100 "$PY" "$D/tools/report.py"
run "$WITH" 0x100 "$PY" "$D/uploads/payload.py"
run "$WITH" 0x100 "$DASH" "$D/uploads/payload.sh"
echo "audit records of these refusals in auditd's log: $(records)"

shows "trustfor-relay: the same verdicts through BPF (the program trusttop uses), one audit record per refusal; once ready it keeps only CAP_AUDIT_WRITE"
relay_start "$D/relay.err"
cat "$D/relay.err"
grep '^Cap\(Eff\|Bnd\)' "/proc/$RPID/status"

shows "The same refusals again, and two runs without the bit (the interpreter runs the script, AT_EXECVE_CHECK still refuses: observed): every refusal is now in the log, enforced or observed"
run "$WITH" 0x100 "$PY" "$D/uploads/payload.py"
run "$WITH" 0x100 "$DASH" "$D/uploads/payload.sh"
run "$WITH" 0x100 "$PY" "$D/home/new.py"
run "$PY" "$D/uploads/payload.py"
run "$PY" "$D/home/new.py"
# Every refusal the relay saw (its counter, from BPF as the check
# returned) in the log: SIGUSR1 makes it print its counters.
seen() { relay_counters "$D/relay.err" | sed -n 's/^trustfor-relay: seen \([0-9]*\),.*/\1/p'; }
wait_for 30 eval '[ "$(seen)" = "$(records)" ]' ||
	echo "(after 30 s the log had $(records) of the $(seen) refusals the relay saw)"
echo "audit records of these refusals in auditd's log: $(records)"
echo "one of them, as auditd wrote it:"
ausearch --raw -m 2650 -if "$LOG" 2> /dev/null | grep "payload.sh" | head -1

shows "audisp-trusted-for, as auditd runs it, counts them by source (kernel records 1350, relay records 2650), interpreter and reason"
# the plugin saves its state and metrics every second: wait until they
# hold every record of the log
counted() { "$PLUGIN" report --json --state "$D/state/state.json" 2> /dev/null | jq -r '.source.relay.count // 0'; }
exported() { awk '/^trustfor_denials_total\{.*source="relay"/ { n += $NF } END { print n + 0 }' "$D/prom/"*.prom; }
n=$(records)
wait_for 30 eval '[ "$(counted)" = "$n" ] && [ "$(exported)" = "$n" ]' ||
	echo "(after 30 s the plugin had counted $(counted) of the $n records, its metrics $(exported))"
run "$PLUGIN" report --state "$D/state/state.json" -i --table interpreter,file,reason

shows "Its Prometheus metrics (the node exporter's textfile): the same counts, with source=\"relay\"; lost records would be in trustfor_lost_total"
grep -h '^trustfor_\(denials\|lost\)_total' "$D/prom/"*.prom

shows "Stopping the relay (SIGTERM): it drains its ring buffer, and says what it saw"
relay_stop
echo "(exit status $?)"
tail -n 1 "$D/relay.err"
