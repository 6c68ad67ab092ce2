#!/bin/sh
# VM test (patched kernel): trusttop counts trusted_for(2) verdicts exactly.
# 1000 allowed + 250 denied checks from three differently named interpreters,
# two deny reasons; then the same under policy 0, where nothing is denied but
# trusttop's would-deny figures must match; then the classic-tracepoint
# fallback; then both interfaces at once: trusted_for(2) and
# execveat(AT_EXECVE_CHECK) from concurrent processes, one row per
# interpreter and interface. Needs `make -C trusttop` run beforehand
# (build/user/trusttop/).
# Expected figures: the number of checks issued (the workload's table),
# the verdicts each workload run got from the kernel, and the model of
# trusttop/tests/model.sh (written from the fs.trust_policy specification),
# which must agree; never trusttop's own output.
. tests/lib/case.sh
. tests/lib/trusttop.sh
. trusttop/tests/model.sh
SUITE=trusttop-vm-exact
B=${TRUSTTOP_BUILD:-build/user/trusttop}
TRUSTTOP=$B/trusttop
WORKLOAD=$(dirname "$B")/tests/probe/probe
need_build "$SUITE" "make -C trusttop" "$TRUSTTOP" "$WORKLOAD"

D=$(mktemp -d /tmp/trusttop-vm.XXXXXX)
FUSE_PID=
cleanup() {
	[ -n "$TT_PID" ] && kill "$TT_PID" 2>/dev/null
	if [ -n "$FUSE_PID" ]; then
		umount -l "$D/fuse"
		kill "$FUSE_PID" 2>/dev/null
		wait "$FUSE_PID" 2>/dev/null
	fi
	rm -rf "$D"
}
fx_at_exit cleanup
fx_policy_save

for n in python3 perl lua; do cp "$WORKLOAD" "$D/$n"; done
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
printf 'x\n' > "$D/nox.txt"; chmod 644 "$D/nox.txt"
fx_noexec_tmpfs "$D/noexec" tt-noexec || t_fail "mount noexec tmpfs"
printf '#!/bin/sh\n' > "$D/noexec/run.sh"; chmod 755 "$D/noexec/run.sh"

# The workload: interpreter, count, file, kind of file (model.sh).
TABLE="python3 500 $D/ok.sh exec
python3 100 $D/nox.txt noperm
perl 300 $D/ok.sh exec
perl 150 $D/noexec/run.sh noexec
lua 200 $D/ok.sh exec"
ISSUED=$(printf '%s\n' "$TABLE" | awk '{ n += $2 } END { print n }')
workload() {
	i=0
	printf '%s\n' "$TABLE" | while read -r exe n file kind; do
		i=$((i + 1))
		# exit 1: some refused, as the table wants
		"$D/$exe" -c "$exe" -n "$n" "$file" > "$D/w$i"
		[ $? -le 1 ] || exit 1
	done
}
# The runs of a table as "exe api kind count" lines, one per run, in order:
# TABLE's through trusted_for(2), BOTH's (below) through their interface.
table_runs() { printf '%s\n' "$TABLE" | awk '{ print $1, "trusted_for", $4, $2 }'; }
both_runs() { printf '%s\n' "$BOTH" | awk '{ print $1, $2, $6, $4 }'; }
# mismatches RUNS PREFIX POLICY: each run of RUNS (table_runs, both_runs)
# whose verdicts ($D/PREFIX<n>, n from 1) are not the model's.
mismatches() {
	i=0
	$1 | while read -r w_exe w_api w_kind w_n; do
		i=$((i + 1))
		row_reset; row_add "$w_api" "$3" "$w_kind" "$w_n"
		[ "$(cat "$D/$2$i")" = "$(row_verdicts)" ] ||
			printf ' %s %s %s: %s, model: %s;' "$w_exe" "$w_api" "$w_kind" \
				"$(cat "$D/$2$i")" "$(row_verdicts)"
	done
}
# verify_workload WHAT POLICY: every run got the model's verdicts.
verify_workload() {
	t_eq "$1: workload's verdicts = model's" "" "$(mismatches table_runs w "$2")"
}
# tally_runs RUNS POLICY API EXE: the model's figures (E_*) of the runs of
# RUNS through API by EXE (empty: any).
tally_runs() {
	row_reset
	while read -r w_exe w_api w_kind w_n; do
		[ -z "$3" ] || [ "$w_api" = "$3" ] || continue
		[ -z "$4" ] || [ "$w_exe" = "$4" ] || continue
		row_add "$w_api" "$2" "$w_kind" "$w_n"
	done <<-EOF
	$($1)
	EOF
}
# tally POLICY [EXE]: the model's figures for one interpreter (or all) in E_*.
tally() { tally_runs table_runs "$1" "" "${2:-}"; }
# seen: "allowed denied errors" summed over the workload's own reports.
seen() { cat "$D"/w[0-9]* | awk '{ a += $2; d += $4; e += $6 } END { print a + 0, d + 0, e + 0 }'; }

# run_trusttop OUT ARGS...: start, wait until attached, run the workload,
# stop with SIGTERM (final snapshot), check the exit status.
run_trusttop() {
	out=$1; shift
	if tt_start "$out" "$D/err" 120 "$@"; then t_ok "$* started"; else
		t_fail "$* produced nothing: $(cat "$D/err")"; fi
	workload || t_fail "workload failed"
	tt_stop; rc=$?
	t_eq "$*: exit status" 0 "$rc"
}
j() { jq -r "$1" "$D/last.json"; }
row() { jq -r --arg e "$1" ".interpreters[] | select(.exe == \$e) | $2" "$D/last.json"; }
# arow EXE API EXPR: the row of one interpreter through one interface.
arow() { jq -r --arg e "$1" --arg a "$2" ".interpreters[] | select(.exe == \$e and .api == \$a) | $3" "$D/last.json"; }

# --- policy 3: denials counted per reason ----------------------------------
echo 3 > /proc/sys/fs/trust_policy
run_trusttop "$D/p3.json" --json -d 0.5
verify_workload "policy 3" 3
tail -n 1 "$D/p3.json" > "$D/last.json"
t_eq "policy 3: backend" "trusted_for+execve_check (tp_btf)" "$(j .backend)"
t_eq "policy 3: policy" 3 "$(j .policy)"
t_eq "policy 3: checks = issued" "$ISSUED" "$(j .totals.checks)"
t_eq "policy 3: allowed denied errors = workload's" "$(seen)" "$(j '.totals | "\(.allowed) \(.denied) \(.errors)"')"
tally 3
t_eq "policy 3: allowed" "$E_ALLOWED" "$(j .totals.allowed)"
t_eq "policy 3: denied" "$E_DENIED" "$(j .totals.denied)"
t_eq "policy 3: file_perm" "$E_D2" "$(j .totals.deny_reasons.file_perm)"
t_eq "policy 3: noexec_mount" "$E_D1" "$(j .totals.deny_reasons.noexec_mount)"
t_eq "policy 3: other reasons" "$E_D4 $E_D8 0" "$(j '.totals.deny_reasons | "\(.not_regular) \(.pseudo_fs) \(.other)"')"
t_eq "policy 3: would-deny" "$E_WOULD" "$(j .totals.would_deny)"
for exe in python3 perl lua; do
	tally 3 $exe
	t_eq "policy 3: $exe" "$E_ALLOWED $E_DENIED $(row_top | sed 's/^-$/null/')" \
		"$(row $exe '"\(.allowed) \(.denied) \(.top_reason)"')"
done
t_eq "policy 3: python3 last denied file" "$D/nox.txt" "$(row python3 .last_denied_file)"
t_eq "policy 3: perl last denied file" "$D/noexec/run.sh" "$(row perl .last_denied_file)"
t_eq "policy 3: ring drops, map full" "0 0" "$(j '"\(.ringbuf_drops) \(.map_full)"')"
tally 3
t_eq "policy 3: denial events" "$E_EVENTS" "$(jq -s '[.[].denials[] | select(.denied)] | length' "$D/p3.json")"
t_eq "policy 3: no denial left out" 0 "$(jq -s '[.[].denials_not_shown // 0] | add' "$D/p3.json")"

# --- policy 0: nothing denied, would-deny exact ------------------------------
echo 0 > /proc/sys/fs/trust_policy
run_trusttop "$D/p0.json" --json -d 0.5
verify_workload "policy 0" 0
tail -n 1 "$D/p0.json" > "$D/last.json"
t_eq "policy 0: policy" 0 "$(j .policy)"
t_eq "policy 0: checks = issued" "$ISSUED" "$(j .totals.checks)"
t_eq "policy 0: allowed denied errors = workload's" "$(seen)" "$(j '.totals | "\(.allowed) \(.denied) \(.errors)"')"
tally 0
t_eq "policy 0: allowed" "$E_ALLOWED" "$(j .totals.allowed)"
t_eq "policy 0: denied" "$E_DENIED" "$(j .totals.denied)"
t_eq "policy 0: would-deny" "$E_WOULD" "$(j .totals.would_deny)"
t_eq "policy 0: would file_perm" "$E_W2" "$(j .totals.would_deny_reasons.file_perm)"
t_eq "policy 0: would noexec_mount" "$E_W1" "$(j .totals.would_deny_reasons.noexec_mount)"
for exe in python3 perl; do
	tally 0 $exe
	t_eq "policy 0: $exe would" "$E_WOULD" "$(row $exe .would_deny)"
done
tally 0
t_eq "policy 0: would-deny events" "$E_EVENTS" "$(jq -s '[.[].denials[] | select(.denied == false and .would_deny != "-")] | length' "$D/p0.json")"
t_eq "policy 0: no denial left out" 0 "$(jq -s '[.[].denials_not_shown // 0] | add' "$D/p0.json")"

# --- batch text, policy 3 ----------------------------------------------------
echo 3 > /proc/sys/fs/trust_policy
run_trusttop "$D/p3.txt" -b -d 0.5
verify_workload "batch" 3
tally 3
last=$(tt_last_snapshot "$D/p3.txt")
t_eq "batch: totals line" "Checks: $ISSUED total" "$(printf '%s\n' "$last" | grep -o '^Checks: [0-9]* total')"
t_eq "batch: allowed/denied" "allowed $E_ALLOWED  denied $E_DENIED" "$(printf '%s\n' "$last" | grep '^Checks: ' | grep -o 'allowed [0-9]*  denied [0-9]*')"

# --- classic tracepoint fallback --------------------------------------------
run_trusttop "$D/tp.json" --json -d 0.5 --backend trusted_for-tp
verify_workload "tracepoint" 3
tally 3
tail -n 1 "$D/tp.json" > "$D/last.json"
t_eq "tracepoint: backend" "trusted_for (tracepoint)" "$(j .backend)"
t_eq "tracepoint: totals" "$ISSUED $E_ALLOWED $E_DENIED $E_WOULD" "$(j '.totals | "\(.checks) \(.allowed) \(.denied) \(.would_deny)"')"
t_eq "tracepoint: reasons" "$E_D2 $E_D1" "$(j '.totals.deny_reasons | "\(.file_perm) \(.noexec_mount)"')"
ino=$(stat -c %i "$D/nox.txt")
case $(row python3 .last_denied_file) in
"dev "*" ino $ino") t_ok "tracepoint: file shown as dev/ino" ;;
*) t_fail "tracepoint: file: $(row python3 .last_denied_file), want ino $ino" ;;
esac

# --- both interfaces at once ------------------------------------------------
# Four processes at the same time: through trusted_for(2) under policy 3,
# and through execveat(AT_EXECVE_CHECK), one of them enforcing
# (SECBIT_EXEC_RESTRICT_FILE) and checking a file it holds open for
# writing. python3 uses both interfaces: two rows. Fewer refusals than
# the 256 events one JSON object lists, so that every event can be
# checked (more would be counted, but listed as denials_not_shown).
# Expected figures: the
# model (model.sh: execve(2)'s rules for AT_EXECVE_CHECK, whatever the
# securebits) and the verdicts each process got.
cp "$D/ok.sh" "$D/busy.sh"
# interpreter, interface, securebits, count, file, kind, probe flags
BOTH="python3 trusted_for 0 400 $D/ok.sh exec -
python3 trusted_for 0 40 $D/nox.txt noperm -
perl execve_check 0 300 $D/ok.sh exec -
perl execve_check 0 40 $D/noexec/run.sh noexec -
lua execve_check 0x100 30 $D/nox.txt noperm -
lua execve_check 0x100 20 $D/busy.sh busy -w
python3 execve_check 0 30 $D/nox.txt noperm -
python3 execve_check 0 80 $D/ok.sh exec -
perl execve_check 0x400 10 stdin:$D/nox.txt noperm -
perl execve_check 0x400 5 $D/nox.txt noperm -
perl execve_check 0x100 4 stdin:$D/nox.txt noperm -"
# (stdin:FILE: FILE on descriptor 0, checked as fd:0: code read on stdin,
# interactive input, enforced under SECBIT_EXEC_DENY_INTERACTIVE, 0x400,
# and not under SECBIT_EXEC_RESTRICT_FILE, 0x100, alone; the same file
# opened by the probe the other way round: check_exec.rst)
both_workload() {
	i=0 pids=
	while read -r exe api bits n file kind fl; do
		i=$((i + 1))
		[ "$fl" = - ] && fl=
		in=/dev/null
		case $file in stdin:*) in=${file#stdin:} file=fd:0 ;; esac
		# shellcheck disable=SC2086
		"$D/$exe" -c "$exe" -a "$api" -s "$bits" -n "$n" $fl "$file" < "$in" > "$D/b$i" &
		pids="$pids $!"
	done <<-EOF
	$BOTH
	EOF
	# shellcheck disable=SC2086
	wait $pids # not trusttop's
}
# both_tally API [EXE]: the model's figures of one interface (one row).
both_tally() { tally_runs both_runs 3 "$1" "${2:-}"; }
echo 3 > /proc/sys/fs/trust_policy
if tt_start "$D/both.json" "$D/err" 120 --json -d 0.5; then t_ok "both: started"; else
	t_fail "both: produced nothing: $(cat "$D/err")"; fi
both_workload
tt_stop; rc=$?
t_eq "both: exit status" 0 "$rc"
t_eq "both: each process's verdicts = model's" "" "$(mismatches both_runs b 3)"
tail -n 1 "$D/both.json" > "$D/last.json"
t_eq "both: backend" "trusted_for+execve_check (tp_btf)" "$(j .backend)"
t_eq "both: interfaces" "trusted_for execve_check" "$(j '.apis | join(" ")')"
ISSUED_BOTH=$(printf '%s\n' "$BOTH" | awk '{ n += $4 } END { print n }')
t_eq "both: checks = issued" "$ISSUED_BOTH" "$(j .totals.checks)"
for api in trusted_for execve_check; do
	both_tally $api
	t_eq "both: $api totals" "$E_ALLOWED $E_DENIED $E_WOULD 0" \
		"$(j ".totals_by_api.$api | \"\(.allowed) \(.denied) \(.would_deny) \(.errors)\"")"
	t_eq "both: $api deny reasons" "$E_D1 $E_D2 $E_D4 $E_D8 $E_D16 $E_D32" \
		"$(j ".totals_by_api.$api.deny_reasons | \"\(.noexec_mount) \(.file_perm) \(.not_regular) \(.pseudo_fs) \(.write_busy) \(.lsm)\"")"
	t_eq "both: $api events" "$E_EVENTS" \
		"$(jq -s --arg a $api '[.[].denials[] | select(.api == $a)] | length' "$D/both.json")"
done
for r in "python3 trusted_for" "python3 execve_check" "perl execve_check" "lua execve_check"; do
	# shellcheck disable=SC2086
	set -- $r
	both_tally "$2" "$1"
	t_eq "both: row $1/$2" "$E_ALLOWED $E_DENIED $E_WOULD $(row_top | sed 's/^-$/null/')" \
		"$(arow "$1" "$2" '"\(.allowed) \(.denied) \(.would_deny) \(.top_reason)"')"
done
t_eq "both: rows" 4 "$(j '.interpreters | length')"
t_eq "both: busy file's events, write_busy" 20 \
	"$(jq -s --arg f "$D/busy.sh" '[.[].denials[] | select(.file == $f and .reason == "write_busy" and .ret == -26)] | length' "$D/both.json")"
# The securebits travel with AT_EXECVE_CHECK's events: lua enforced
# (SECBIT_EXEC_RESTRICT_FILE), perl on stdin too (SECBIT_EXEC_DENY_INTERACTIVE).
t_eq "both: enforced refusals (lua 50, perl's stdin 10)" 60 \
	"$(jq -s '[.[].denials[] | select(.api == "execve_check" and .enforced)] | length' "$D/both.json")"
t_eq "both: not enforced (perl 40 + 5 + stdin 4, python3 30)" 79 \
	"$(jq -s '[.[].denials[] | select(.api == "execve_check" and .enforced == false)] | length' "$D/both.json")"
t_eq "both: securebits of the enforced events (0x100, 0x400)" "256,1024" \
	"$(jq -rs '[.[].denials[] | select(.enforced) | .secbits] | unique | map(tostring) | join(",")' "$D/both.json")"
t_eq "both: trusted_for events carry no securebits" 0 \
	"$(jq -s '[.[].denials[] | select(.api == "trusted_for" and has("secbits"))] | length' "$D/both.json")"
t_eq "both: no drop, none left out" "0 0 0" \
	"$(jq -rs '"\(.[-1].ringbuf_drops) \(.[-1].map_full) \([.[].denials_not_shown // 0] | add)"' "$D/both.json")"

# --api: one interface's rows, in the text view too.
tt_start "$D/api.txt" "$D/err" 120 -b -d 0.5 --api execve_check ||
	t_fail "--api: no output: $(cat "$D/err")"
both_workload
tt_stop
last=$(tt_last_snapshot "$D/api.txt")
t_eq "--api execve_check: rows' interfaces" "execve_check execve_check execve_check" \
	"$(printf '%s\n' "$last" | awk '$1 ~ /^(python3|perl|lua)$/ {print $3}' | tr '\n' ' ' | sed 's/ $//')"
both_tally trusted_for
tf_line="  trusted_for  $((E_ALLOWED + E_DENIED)) checks  allowed $E_ALLOWED  denied $E_DENIED  would-deny $E_WOULD  errors 0"
t_eq "text: trusted_for's own line" "$tf_line" "$(printf '%s\n' "$last" | grep '^  trusted_for ')"

# The classic execve_check_verdict tracepoint (kernels without BTF).
tt_start "$D/ectp.json" "$D/err" 120 --json -d 0.5 --backend execve_check-tp ||
	t_fail "execve_check-tp: no output: $(cat "$D/err")"
both_workload
tt_stop; rc=$?
t_eq "execve_check-tp: exit status" 0 "$rc"
tail -n 1 "$D/ectp.json" > "$D/last.json"
t_eq "execve_check-tp: backend" "execve_check (tracepoint)" "$(j .backend)"
both_tally execve_check
t_eq "execve_check-tp: totals (nothing of trusted_for)" \
	"$((E_ALLOWED + E_DENIED)) $E_ALLOWED $E_DENIED $E_WOULD" \
	"$(j '.totals | "\(.checks) \(.allowed) \(.denied) \(.would_deny)"')"
t_eq "execve_check-tp: write_busy" "$E_D16" "$(j .totals.deny_reasons.write_busy)"
ino=$(stat -c %i "$D/busy.sh")
t_eq "execve_check-tp: busy file's events, as dev/ino" 20 \
	"$(jq -s --arg i "$ino" '[.[].denials[] | select(.reason == "write_busy" and (.file | test("^dev [0-9]+:[0-9]+ ino " + $i + "$")))] | length' "$D/ectp.json")"


# Files that the filesystem fails to check: the selftests' FUSE server
# (fuse_error_fs.c) fails the permission checks of eio and estale with
# EIO and ESTALE.  The kernel refuses them with that error and the reason
# check_error (patch 16); trusttop must count refusals with that reason,
# not errors of the call, and the events must carry the error.  The probes
# see errors: the interpreters' view.
FUSE_SRV=build/kernel/selftests/fuse_error_fs
need_build "$SUITE" "make kernel" "$FUSE_SRV"
mkdir "$D/fuse"
"$FUSE_SRV" "$D/fuse" &
FUSE_PID=$!
t_run "check_error: the FUSE server answers" wait_for 10 test -e "$D/fuse/ok"
echo 3 > /proc/sys/fs/trust_policy
if tt_start "$D/ce.json" "$D/err" 120 --json -d 0.5; then t_ok "check_error: started"; else
	t_fail "check_error: produced nothing: $(cat "$D/err")"; fi
t_eq "check_error: perl's 3 checks of eio fail" "allowed 0 denied 0 errors 3 checks 3" \
	"$("$D/perl" -c perl -a execve_check -s 0 -n 3 "$D/fuse/eio")"
t_eq "check_error: python3's 2 trusted_for(2) of estale fail" "allowed 0 denied 0 errors 2 checks 2" \
	"$("$D/python3" -c python3 -a trusted_for -s 0 -n 2 "$D/fuse/estale")"
tt_stop; rc=$?
t_eq "check_error: exit status" 0 "$rc"
tail -n 1 "$D/ce.json" > "$D/last.json"
t_eq "check_error: checks, denied, check_error, errors" "5 5 5 0" \
	"$(j '.totals | "\(.checks) \(.denied) \(.deny_reasons.check_error) \(.errors)"')"
t_eq "check_error: the events' errors (EIO 3, ESTALE 2)" "-116 -116 -5 -5 -5" \
	"$(jq -s -r '[.[].denials[] | select(.reason == "check_error") | .ret] | sort | map(tostring) | join(" ")' "$D/ce.json")"

t_done "$SUITE"
