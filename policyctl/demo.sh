#!/bin/bash
# make -C policyctl demo: policyctl check on a staged tree (a noexec mount
# holding scripts, a script without its x bit), a refused apply, the fix, a
# successful apply, status, rollback. Runs in the trustfor VM
# (tests/vm/run) unless this kernel already has trusted_for.
# usage: policyctl/demo.sh [POLICYCTL]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
P=${1:-$top/build/user/policyctl/policyctl}
if [ ! -e /proc/sys/fs/trust_policy ]; then
	echo "(this kernel has no trusted_for: running the demo in the trustfor VM)"
	cd "$top" && exec tests/vm/run -- bash policyctl/demo.sh "$P"
fi
if [ -z "${PC_DEMO_NS:-}" ]; then
	exec env PC_DEMO_NS=1 unshare -m --propagation private bash "$0" "$@"
fi
export POLICYCTL_STATE=/run/policyctl/last-apply
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; echo "(exit $?)"; }

D=/tmp/demo
mkdir -p $D && mount -t tmpfs -o mode=0755 demo $D
mkdir -p $D/srv/app $D/home/shared
mount -t tmpfs -o noexec,mode=0755 shared $D/home/shared
printf '#!/bin/sh\necho deploying\n' > $D/srv/app/deploy.sh; chmod 0755 $D/srv/app/deploy.sh
printf 'print("report")\n' > $D/srv/app/report.py; chmod 0644 $D/srv/app/report.py
printf '#!/bin/sh\necho backup\n' > $D/home/shared/backup.sh; chmod 0755 $D/home/shared/backup.sh
printf '#!/bin/sh\necho sync\n' > $D/home/shared/sync; chmod 0755 $D/home/shared/sync
old=$(cat /proc/sys/fs/trust_policy)

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
echo "$old" > /proc/sys/fs/trust_policy
umount $D/home/shared $D
