#!/bin/bash
# policyctl apply / rollback / status on the trustfor kernel, in the VM:
# refusal when denials are predicted (nothing written), refusal without
# CAP_SYS_ADMIN (nothing written), --force, the fix then a successful apply
# with --persist (atomic sysctl.d file), read-back, rollback to the recorded
# value, and status/--json reporting the live value.
# Needs a host build first: make -C policyctl
SUITE=policyctl-apply
top=$(cd "$(dirname "$0")/../../.." && pwd)
TF_LIB=$top/tests/lib
# shellcheck source=tests/lib/case.sh
. "$TF_LIB/case.sh"
# shellcheck source=tests/lib/run.sh
. "$TF_LIB/run.sh"
P=$top/build/user/policyctl/policyctl
POLICY=/proc/sys/fs/trust_policy
CONF=/etc/sysctl.d/60-trust-policy.conf
export POLICYCTL_STATE=/run/policyctl/last-apply   # /var/lib is read-only here
PY=/usr/bin/python3

need_build $SUITE "make -C policyctl" "$P"
[ -w "$POLICY" ] || { t_fail "$POLICY writable"; t_done $SUITE; exit 1; }
fx_tmpdir /tmp/pcapply-run.XXXXXX
run_files "$FX_DIR"

fx_policy_save
echo 0 > $POLICY
rm -f $CONF
C=/tmp/pcapply
fx_tmpfs $C mode=0755 pcapply
fx_noexec_tmpfs $C/noexec pcapplynx
printf '#!/bin/sh\n' > $C/good.sh; chmod 0755 $C/good.sh
printf '#!/bin/sh\n' > $C/noexec/tool.sh; chmod 0755 $C/noexec/tool.sh
printf '#!/bin/sh\n' > $C/notexec.sh; chmod 0644 $C/notexec.sh

run "$P" status
t_eq "status: trusted_for available" 1 "$(grep -c '^trusted_for(2):   available' "$RUN_OUT")"
t_eq "status: policy 0" 1 "$(grep -c '^fs.trust_policy:  0$' "$RUN_OUT")"

# denials predicted -> refused, exit 1, nothing written
run "$P" apply --policy 3 --path $C
t_eq "apply with denials: exit 1" 1 "$rc"
t_eq "apply with denials: lists what would break" 2 "$(grep -c -E 'tool.sh|notexec.sh' "$RUN_OUT")"
t_eq "apply with denials: one-line refusal" 1 "$(grep -c 'refusing to set fs.trust_policy=3: 2 interpreted files' "$RUN_ERR")"
t_eq "apply refused: policy unchanged" 0 "$(cat $POLICY)"
t_eq "apply refused: no state file" no "$([ -e $POLICYCTL_STATE ] && echo yes || echo no)"

# without CAP_SYS_ADMIN: clear error, nothing written
run capsh --drop=cap_sys_admin -- -c "$P apply --policy 1 --path $C/good.sh --persist"
t_eq "apply without CAP_SYS_ADMIN: exit 2" 2 "$rc"
t_eq "apply without CAP_SYS_ADMIN: says so" 1 "$(grep -c 'needs CAP_SYS_ADMIN' "$RUN_ERR")"
t_eq "apply without CAP_SYS_ADMIN: policy unchanged" 0 "$(cat $POLICY)"
t_eq "apply without CAP_SYS_ADMIN: no conf" no "$([ -e $CONF ] && echo yes || echo no)"
run capsh --drop=cap_sys_admin -- -c "$P rollback"
t_eq "rollback without CAP_SYS_ADMIN: exit 2" 2 "$rc"

# the fix, then apply
mv $C/noexec/tool.sh $C/tool.sh
chmod 0755 $C/notexec.sh
run "$P" check --policy 3 --path $C
t_eq "after the fix: check exit 0" 0 "$rc"
run "$P" apply --policy 3 --path $C --persist
t_eq "apply: exit 0" 0 "$rc"
t_eq "apply: reports old -> new" 1 "$(grep -c '^fs.trust_policy: 0 -> 3$' "$RUN_OUT")"
t_eq "apply: kernel value" 3 "$(cat $POLICY)"
t_eq "apply --persist: conf" "fs.trust_policy = 3" "$(grep -v '^#' $CONF)"
t_eq "apply --persist: conf mode" 644 "$(stat -c %a $CONF)"
t_eq "apply --persist: no temp file left" "60-trust-policy.conf" "$(find /etc/sysctl.d -mindepth 1 -maxdepth 1 -name '*trust-policy*' -printf '%f\n')"
t_eq "state file records the old value" "old=0" "$(grep '^old=' $POLICYCTL_STATE)"
run "$P" status --json
t_eq "status --json: live value" "3 True" "$($PY -c 'import json,sys; d=json.load(sys.stdin); print(d["policy"], d["trusted_for"])' < "$RUN_OUT")"

# --force applies despite denials
printf '#!/bin/sh\n' > $C/late.sh; chmod 0600 $C/late.sh
run "$P" apply --policy 2 --path $C --force
t_eq "apply --force: exit 0" 0 "$rc"
t_eq "apply --force: kernel value" 2 "$(cat $POLICY)"
t_eq "apply --force: warns" 1 "$(grep -c -- '--force: applying although 1 file' "$RUN_ERR")"

# rollback restores the value recorded before the last apply (3)
run "$P" rollback
t_eq "rollback: exit 0" 0 "$rc"
t_eq "rollback: 2 -> 3" 1 "$(grep -c '^fs.trust_policy: 2 -> 3$' "$RUN_OUT")"
t_eq "rollback: kernel value" 3 "$(cat $POLICY)"
t_eq "rollback: state consumed" no "$([ -e $POLICYCTL_STATE ] && echo yes || echo no)"
run "$P" rollback
t_eq "second rollback: exit 2" 2 "$rc"
t_eq "second rollback: nothing recorded" 1 "$(grep -c 'no apply recorded' "$RUN_ERR")"

# a state file that cannot be written: nothing applied
run env POLICYCTL_STATE=/proc/nonexistent/state "$P" apply --policy 1 --path $C/good.sh
t_eq "unwritable state file: exit 2" 2 "$rc"
t_eq "unwritable state file: policy unchanged" 3 "$(cat $POLICY)"

t_done $SUITE
