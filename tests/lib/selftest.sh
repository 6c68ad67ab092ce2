#!/bin/sh
# The shell helpers of tests/lib checked on their own (host suite "shlib",
# root: mounts in a private mount namespace): wait_for's deadline, the
# build check's failure line and RESULT, run's captures, the re-exec in a
# private mount namespace, the fixture's undo at exit (on TERM too), the
# allowed CPUs, trusttop's snapshot helpers and auditd_conf.  The expected
# values come from each helper's header comment.
# usage: sh tests/lib/selftest.sh
# shellcheck source-path=SCRIPTDIR disable=SC2016 # sh -c '...' gets $1...
L=$(cd "$(dirname "$0")" && pwd)
. "$L/mountns.sh"
[ -n "${SHLIB_OUTER_NS:-}" ] || SHLIB_OUTER_NS=$(readlink /proc/self/ns/mnt)
export SHLIB_OUTER_NS
mountns_reexec sh "$0" "$@"
. "$L/assert.sh"
. "$L/wait.sh"
. "$L/run.sh"
. "$L/cpus.sh"
. "$L/trusttop.sh"
. "$L/auditd.sh"
SUITE=shlib
W=$(mktemp -d /tmp/tf-shlib.XXXXXX)
trap 'rm -rf "$W"' EXIT

# --- wait_for ---------------------------------------------------------------
t_run "wait_for: a true condition returns 0" wait_for 5 true
t0=$(date +%s)
# (under timeout: a wait_for that never gives up fails here, not hangs)
timeout 10 sh -c '. "$1/wait.sh"; wait_for 1 false' - "$L"
rc=$? t1=$(date +%s)
t_eq "wait_for: a false condition returns 1 at the deadline" 1 "$rc"
if [ $((t1 - t0)) -le 3 ]; then t_ok "wait_for 1 gives up within 3 s"; else
	t_fail "wait_for 1 gave up after $((t1 - t0)) s"; fi
(sleep 0.5; : > "$W/late") &
t_run "wait_for: a condition that becomes true" wait_for 5 test -e "$W/late"
wait
t_run "nonempty / has_lines" sh -c '. "$1/wait.sh"; printf "a\nb\n" > "$2/f";
	nonempty "$2/f" && has_lines "$2/f" 2 && ! has_lines "$2/f" 3 && ! nonempty "$2/none"' - "$L" "$W"

# --- need_build ---------------------------------------------------------------
: > "$W/plain"
printf '#!/bin/sh\n' > "$W/tool"; chmod 755 "$W/tool"
nb() { # nb FILE...: need_build in a script of its own; its output and status
	sh -c '. "$1/assert.sh"; . "$1/build.sh"; shift; need_build nb "make it" "$@"; echo reached' \
		- "$L" "$@" > "$W/nb.out" 2>&1
	echo "$?"
}
t_eq "need_build: present and executable: goes on" "0 reached" \
	"$(nb "$W/tool") $(tail -n 1 "$W/nb.out")"
t_eq "need_build: missing file: exit 1" 1 "$(nb "$W/tool" "$W/missing")"
t_eq "need_build: missing file: one failure, the RESULT line" \
	"not ok - no $W/missing: run 'make it' first|RESULT nb 0 1" "$(paste -sd'|' "$W/nb.out")"
t_eq "need_build: a file without x bit fails too" 1 "$(nb "$W/plain")"
t_eq "need_build: a directory fails too" 1 "$(nb "$W")"

# --- run ----------------------------------------------------------------------
run_files "$W"
run sh -c 'printf "out\n\n"; echo err >&2; exit 3'
# shellcheck disable=SC2154 # run sets out and err
t_eq "run: rc, out, err" "3|out|err" "$rc|$out|$err"
t_eq "run: the files stay" "out err" "$(head -n 1 "$RUN_OUT") $(cat "$RUN_ERR")"
setx() { x="set"; }
x=
run setx
t_eq "run: the command runs in this shell" set "$x"

# --- mountns_reexec -----------------------------------------------------------
ns=$(readlink /proc/self/ns/mnt)
if [ "$ns" != "$SHLIB_OUTER_NS" ]; then t_ok "mountns_reexec: a mount namespace of its own"; else
	t_fail "mountns_reexec: still in $ns"; fi
t_eq "mountns_reexec: its marker is this pid" "$$" "$TF_MOUNTNS_PID"
# a script started from here makes its own namespace again
child=$(sh -c '. "$1/mountns.sh"; mountns_reexec sh -c "readlink /proc/self/ns/mnt" x' - "$L")
if [ -n "$child" ] && [ "$child" != "$ns" ]; then t_ok "mountns_reexec: a child script gets its own"; else
	t_fail "mountns_reexec: child in '$child', parent in $ns"; fi

# --- fixture ------------------------------------------------------------------
echo 2 > "$W/policy"
cat > "$W/fx.sh" <<'EOF'
. "$1/fixture.sh"
FX_POLICY_FILE=$2/policy
fx_policy_save
echo 3 > "$FX_POLICY_FILE"
fx_at_exit "echo first >> '$2/order'"
fx_at_exit "echo second >> '$2/order'"
fx_noexec_tmpfs "$2/mnt" shlib-fx || exit 9
findmnt -n -o FSTYPE,VFS-OPTIONS "$2/mnt" > "$2/mounted"
if [ "$3" = term ]; then
	sleep 30 > /dev/null 2>&1 &
	fx_at_exit "kill $!"
	: > "$2/ready"
	wait
fi
exit 4
EOF
sh "$W/fx.sh" "$L" "$W"
rc=$?
t_eq "fixture: the script's exit status is kept" 4 "$rc"
case $(cat "$W/mounted") in
"tmpfs "*noexec*) t_ok "fx_noexec_tmpfs: a noexec tmpfs" ;;
*) t_fail "fx_noexec_tmpfs: mounted '$(cat "$W/mounted")'" ;;
esac
t_eq "fixture: unmounted at exit" "" "$(findmnt -n "$W/mnt")"
t_eq "fixture: fs.trust_policy put back" 2 "$(cat "$W/policy")"
t_eq "fixture: the last registered runs first" "second first" "$(paste -sd' ' "$W/order")"
rm -f "$W/order"
sh "$W/fx.sh" "$L" "$W" term &
p=$!
wait_for 10 test -e "$W/ready"
kill -TERM "$p"
wait "$p"
t_eq "fixture: on SIGTERM too" "2 second first" "$(cat "$W/policy") $(paste -sd' ' "$W/order" 2>/dev/null)"
t_eq "fixture: unmounted after SIGTERM" "" "$(findmnt -n "$W/mnt")"
t_eq "fixture: under set -e, a failed undo stops no other" "body|last|first" \
	"$(sh -ec '. "$1/fixture.sh"; fx_at_exit "echo first"; fx_at_exit false
		fx_at_exit "echo last"; echo body' - "$L" | paste -sd'|')"

# --- allowed_cpus ---------------------------------------------------------------
t_eq "allowed_cpus: one CPU" 0 "$(taskset -c 0 sh -c '. "$1/cpus.sh"; allowed_cpus' - "$L")"
if [ "$(nproc --all)" -ge 2 ]; then
	t_eq "allowed_cpus: a range (0-1)" "0 1" \
		"$(taskset -c 0-1 sh -c '. "$1/cpus.sh"; allowed_cpus' - "$L" | paste -sd' ')"
else
	t_skip "allowed_cpus: a range: this machine has one CPU"
fi

# --- trusttop helpers ---------------------------------------------------------
printf 'trusttop - 1\nrow a\ntrusttop - 2\nrow b\nrow c\n' > "$W/tt.txt"
t_eq "tt_last_snapshot: the last snapshot" "trusttop - 2|row b|row c" \
	"$(tt_last_snapshot "$W/tt.txt" | paste -sd'|')"
printf '{"a":' > "$W/tt.json"
if tt_ready "$W/tt.json"; then t_fail "tt_ready: half a JSON line is no snapshot"; else
	t_ok "tt_ready: half a JSON line is no snapshot"; fi
printf '1}\n' >> "$W/tt.json"
t_run "tt_ready: a complete JSON line" tt_ready "$W/tt.json"
t_run "tt_ready: the text view's header" tt_ready "$W/tt.txt"

# --- auditd_conf ----------------------------------------------------------------
auditd_conf "$W/au" RAW "name = x" "q_depth = 7"
t_eq "auditd_conf: mode 0640, the extra lines" "640 name = x q_depth = 7" \
	"$(stat -c %a "$W/au/auditd.conf") $(tail -n 2 "$W/au/auditd.conf" | paste -sd' ')"
t_eq "auditd_conf: its log and plugin directories" "log_file = $W/au/log/audit.log|plugin_dir = $W/au/plugins.d|yes" \
	"$(grep -E '^(log_file|plugin_dir) ' "$W/au/auditd.conf" | paste -sd'|')|$([ -d "$W/au/log" ] && [ -d "$W/au/plugins.d" ] && echo yes)"

# --- tap-result.sh ------------------------------------------------------------
# From its header: the SKIP directive is "#" at the start or after a blank
# and the word SKIP in any case; a name holding "a#skipfile" or
# "#skip_list" passes; cmocka's reason comes from its "# SKIP" line.
printf '%s\n' '1..5' 'ok 1 - reads a#skipfile' 'ok 2 - the #skip_list option' \
	'ok 3 # SKIP no widget' '# SKIP test_x: no gadget' 'not ok 4 # SKIP test_x' \
	'ok 5 name # skip lower case' > "$W/tap"
sh "$L/tap-result.sh" tap cat "$W/tap" > "$W/tap.out"
t_eq "tap-result: names holding '#skip' pass; three skips" "RESULT tap 2 0 3" \
	"$(tail -n 1 "$W/tap.out")"
t_eq "tap-result: the skips' reasons" "no widget|test_x: no gadget|name: lower case" \
	"$(sed -n 's/^SKIPPED tap: //p' "$W/tap.out" | paste -sd'|')"

# --- results.sh -----------------------------------------------------------------
# From its header: exactly EXPECTED RESULT lines, none failed, none that ran
# nothing ("RESULT x 0 0"; all skipped is a run).
printf 'RESULT a 1 0\nRESULT b 0 0 3\n' > "$W/r1"
printf 'RESULT a 1 0\nRESULT b 0 0\n' > "$W/r2"
t_eq "results.sh: two lines, one all skipped: passes; one that ran nothing: fails" "0 1" \
	"$(sh "$L/results.sh" r 2 "$W/r1" 2> /dev/null; echo $?) $(sh "$L/results.sh" r 2 "$W/r2" 2> /dev/null; echo $?)"

t_done "$SUITE"
