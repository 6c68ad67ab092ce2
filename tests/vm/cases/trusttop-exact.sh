#!/bin/sh
# VM test (patched kernel): trusttop counts trusted_for(2) verdicts exactly.
# 1000 allowed + 250 denied checks from three differently named interpreters,
# two deny reasons; then the same under policy 0, where nothing is denied but
# trusttop's would-deny figures must match; then the classic-tracepoint
# fallback. Needs `make -C trusttop` run beforehand (build/user/trusttop/).
. tests/lib/assert.sh
SUITE=trusttop-vm-exact
B=${TRUSTTOP_BUILD:-build/user/trusttop}
TRUSTTOP=$B/trusttop
WORKLOAD=$B/tt-workload
if [ ! -x "$TRUSTTOP" ] || [ ! -x "$WORKLOAD" ]; then
	t_fail "no $TRUSTTOP / $WORKLOAD: run 'make -C trusttop' on the host first"
	t_done "$SUITE"; exit 1
fi

D=$(mktemp -d /tmp/trusttop-vm.XXXXXX)
TT_PID=
cleanup() {
	[ -n "$TT_PID" ] && kill "$TT_PID" 2>/dev/null
	umount "$D/noexec" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT

wait_for() {
	end=$(($(date +%s) + $1)); shift
	while ! "$@"; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.1
	done
}
nonempty() { [ -s "$1" ]; }

for n in python3 perl lua; do cp "$WORKLOAD" "$D/$n"; done
printf '#!/bin/sh\n' > "$D/ok.sh"; chmod 755 "$D/ok.sh"
printf 'x\n' > "$D/nox.txt"; chmod 644 "$D/nox.txt"
mkdir "$D/noexec"
mount -t tmpfs -o noexec tt-noexec "$D/noexec" || t_fail "mount noexec tmpfs"
printf '#!/bin/sh\n' > "$D/noexec/run.sh"; chmod 755 "$D/noexec/run.sh"

workload() {
	"$D/python3" -c python3 -n 500 "$D/ok.sh" > "$D/w1" &&
	"$D/python3" -c python3 -n 100 "$D/nox.txt" > "$D/w2" &&
	"$D/perl" -c perl -n 300 "$D/ok.sh" > "$D/w3" &&
	"$D/perl" -c perl -n 150 "$D/noexec/run.sh" > "$D/w4" &&
	"$D/lua" -c lua -n 200 "$D/ok.sh" > "$D/w5"
}

# run_trusttop OUT ARGS...: start, wait until attached, run the workload,
# stop with SIGTERM (final snapshot), check the exit status.
run_trusttop() {
	out=$1; shift
	"$TRUSTTOP" "$@" > "$out" 2> "$D/err" &
	TT_PID=$!
	if wait_for 120 nonempty "$out"; then t_ok "$* started"; else
		t_fail "$* produced nothing: $(cat "$D/err")"; fi
	workload || t_fail "workload failed"
	kill -TERM "$TT_PID"; wait "$TT_PID"; rc=$?; TT_PID=
	t_eq "$*: exit status" 0 "$rc"
}
j() { jq -r "$1" "$D/last.json"; }
row() { jq -r --arg e "$1" ".interpreters[] | select(.exe == \$e) | $2" "$D/last.json"; }

# --- policy 3: denials counted per reason ----------------------------------
echo 3 > /proc/sys/fs/trust_policy
run_trusttop "$D/p3.json" --json -d 0.5
t_eq "policy 3: python3 workload saw" "allowed 0 denied 100 errors 0" "$(cat "$D/w2")"
tail -n 1 "$D/p3.json" > "$D/last.json"
t_eq "policy 3: backend" "trusted_for (tp_btf)" "$(j .backend)"
t_eq "policy 3: policy" 3 "$(j .policy)"
t_eq "policy 3: checks" 1250 "$(j .totals.checks)"
t_eq "policy 3: allowed" 1000 "$(j .totals.allowed)"
t_eq "policy 3: denied" 250 "$(j .totals.denied)"
t_eq "policy 3: file_perm" 100 "$(j .totals.deny_reasons.file_perm)"
t_eq "policy 3: noexec_mount" 150 "$(j .totals.deny_reasons.noexec_mount)"
t_eq "policy 3: other reasons" "0 0 0" "$(j '.totals.deny_reasons | "\(.not_regular) \(.pseudo_fs) \(.other)"')"
t_eq "policy 3: would-deny" 250 "$(j .totals.would_deny)"
t_eq "policy 3: python3" "500 100 file_perm" "$(row python3 '"\(.allowed) \(.denied) \(.top_reason)"')"
t_eq "policy 3: perl" "300 150 noexec_mount" "$(row perl '"\(.allowed) \(.denied) \(.top_reason)"')"
t_eq "policy 3: lua" "200 0" "$(row lua '"\(.allowed) \(.denied)"')"
t_eq "policy 3: python3 last denied file" "$D/nox.txt" "$(row python3 .last_denied_file)"
t_eq "policy 3: perl last denied file" "$D/noexec/run.sh" "$(row perl .last_denied_file)"
t_eq "policy 3: ring drops" 0 "$(j .ringbuf_drops)"
t_eq "policy 3: denial events" 250 "$(jq -s '[.[].denials[] | select(.denied)] | length' "$D/p3.json")"

# --- policy 0: nothing denied, would-deny exact ------------------------------
echo 0 > /proc/sys/fs/trust_policy
run_trusttop "$D/p0.json" --json -d 0.5
t_eq "policy 0: perl workload saw" "allowed 150 denied 0 errors 0" "$(cat "$D/w4")"
tail -n 1 "$D/p0.json" > "$D/last.json"
t_eq "policy 0: policy" 0 "$(j .policy)"
t_eq "policy 0: checks" 1250 "$(j .totals.checks)"
t_eq "policy 0: allowed" 1250 "$(j .totals.allowed)"
t_eq "policy 0: denied" 0 "$(j .totals.denied)"
t_eq "policy 0: would-deny" 250 "$(j .totals.would_deny)"
t_eq "policy 0: would file_perm" 100 "$(j .totals.would_deny_reasons.file_perm)"
t_eq "policy 0: would noexec_mount" 150 "$(j .totals.would_deny_reasons.noexec_mount)"
t_eq "policy 0: python3 would" 100 "$(row python3 .would_deny)"
t_eq "policy 0: perl would" 150 "$(row perl .would_deny)"
t_eq "policy 0: would-deny events" 250 "$(jq -s '[.[].denials[] | select(.denied == false and .would_deny != "-")] | length' "$D/p0.json")"

# --- batch text, policy 3 ----------------------------------------------------
echo 3 > /proc/sys/fs/trust_policy
run_trusttop "$D/p3.txt" -b -d 0.5
last=$(awk '/^trusttop - /{s=""} {s = s $0 "\n"} END{printf "%s", s}' "$D/p3.txt")
t_eq "batch: totals line" "Checks: 1250 total" "$(printf '%s\n' "$last" | grep -o '^Checks: [0-9]* total')"
t_eq "batch: allowed/denied" "allowed 1000  denied 250" "$(printf '%s\n' "$last" | grep -o 'allowed [0-9]*  denied [0-9]*')"

# --- classic tracepoint fallback --------------------------------------------
run_trusttop "$D/tp.json" --json -d 0.5 --backend trusted_for-tp
tail -n 1 "$D/tp.json" > "$D/last.json"
t_eq "tracepoint: backend" "trusted_for (tracepoint)" "$(j .backend)"
t_eq "tracepoint: totals" "1250 1000 250 250" "$(j '.totals | "\(.checks) \(.allowed) \(.denied) \(.would_deny)"')"
t_eq "tracepoint: reasons" "100 150" "$(j '.totals.deny_reasons | "\(.file_perm) \(.noexec_mount)"')"
ino=$(stat -c %i "$D/nox.txt")
case $(row python3 .last_denied_file) in
"dev "*" ino $ino") t_ok "tracepoint: file shown as dev/ino" ;;
*) t_fail "tracepoint: file: $(row python3 .last_denied_file), want ino $ino" ;;
esac

t_done "$SUITE"
