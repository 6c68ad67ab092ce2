#!/bin/bash
# make -C policyctl demo: policyctl check on a staged tree (a noexec mount
# holding scripts, a script without its x bit), a refused apply, the fix, a
# successful apply, status, rollback. Runs in the trustfor VM
# (tests/vm/run) unless this kernel already has trusted_for, in a private
# mount namespace; fs.trust_policy is put back at exit.
# usage: policyctl/demo.sh [POLICYCTL]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
P=${1:-$top/build/user/policyctl/policyctl}
if [ ! -e /proc/sys/fs/trust_policy ]; then
	echo "(this kernel has no trusted_for: running the demo in the trustfor VM)"
	cd "$top" && exec tests/vm/run -- bash policyctl/demo.sh "$P"
fi
. "$top/tests/lib/mountns.sh"
mountns_reexec bash "$0" "$@"
. "$top/tests/lib/fixture.sh"
export POLICYCTL_STATE=/run/policyctl/last-apply
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; echo "(exit $?)"; }

D=/tmp/demo
fx_tmpfs $D mode=0755 demo
mkdir -p $D/srv/app
fx_noexec_tmpfs $D/home/shared shared
printf '#!/bin/sh\necho deploying\n' > $D/srv/app/deploy.sh; chmod 0755 $D/srv/app/deploy.sh
printf 'print("report")\n' > $D/srv/app/report.py; chmod 0644 $D/srv/app/report.py
printf '#!/bin/sh\necho backup\n' > $D/home/shared/backup.sh; chmod 0755 $D/home/shared/backup.sh
printf '#!/bin/sh\necho sync\n' > $D/home/shared/sync; chmod 0755 $D/home/shared/sync
fx_policy_save

say "$P" status
say "$P" check --policy 3 --path $D
say "$P" apply --policy 3 --path $D
echo
echo "# the fix: move the tools off the noexec mount, mark report.py executable"
mkdir -p $D/srv/tools
mv $D/home/shared/backup.sh $D/home/shared/sync $D/srv/tools/
chmod 0755 $D/srv/app/report.py
say "$P" check --policy 3 --path $D
say "$P" apply --policy 3 --path $D
say "$P" status
say "$P" rollback
