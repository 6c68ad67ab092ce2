#!/bin/bash
# policyctl's predictions against the real trusted_for(2), in the VM.
#
# A corpus of files (tmpfs mounts with and without noexec, a noexec bind
# mount over an exec directory, every owner/group/other r and x combination
# for files of root and of two users with supplementary groups, POSIX ACLs
# with named users, named groups and masks, setuid/setgid bits, directories,
# fifos, char and block devices, symlinks to each of them, files of procfs,
# sysfs, tracefs, devtmpfs, the 9p root, and pipe, memfd and socket fds) is
# checked under fs.trust_policy 0..3 for root, the owner user and another
# user:
#   kernel:     tf-probe --as UID FILE...   (trusted_for(2) as that user)
#   prediction: policyctl explain --policy N --user UID FILE...
# and, for the regular script files, `policyctl check --json --all` (what an
# administrator runs) must deny exactly the files the kernel denies.
# Socket *files* cannot be opened (ENXIO), so sockets are probed as fds.
# Prints "agreement: N/N"; fails below 100%.
# Needs a host build first: make -C policyctl
SUITE=policyctl-proof
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/lib/assert.sh"
P=$top/build/user/policyctl/policyctl
PROBE=$top/build/user/policyctl/tf-probe
POLICY=/proc/sys/fs/trust_policy
PY=/usr/bin/python3

if [ ! -x "$P" ] || [ ! -x "$PROBE" ]; then
	t_fail "host build present ($P, $PROBE): run make -C policyctl"
	t_done $SUITE; exit 1
fi
if [ ! -w "$POLICY" ]; then
	t_fail "$POLICY writable (patched kernel, root)"
	t_done $SUITE; exit 1
fi
old_policy=$(cat $POLICY)

# The users are added to the VM's /etc copy directly: useradd needs fcntl
# locks, which the VM kernel may lack (CONFIG_FILE_LOCKING).
printf 'pcalice:x:2001:2001::/nonexistent:/bin/sh\npcbob:x:2002:2002::/nonexistent:/bin/sh\n' >> /etc/passwd
printf 'pcalice:x:2001:\npcbob:x:2002:\npcshared:x:2100:pcalice\n' >> /etc/group
t_eq "test users" "2001 2002 pcalice pcshared" "$(id -u pcalice) $(id -u pcbob) $(id -nG pcalice)"

C=/tmp/pcproof
mkdir -p $C
mount -t tmpfs -o mode=0755 pcproof $C
mkdir $C/ex $C/nx $C/bindsrc $C/bindnx $C/special
mount -t tmpfs -o noexec,mode=0755 pcnx $C/nx
mount --bind $C/bindsrc $C/bindnx
mount -o remount,bind,noexec $C/bindnx
trap 'echo $old_policy > $POLICY; umount $C/bindnx $C/nx $C 2>/dev/null' EXIT

files=()      # every probed path
scripts=()    # the regular script files policyctl check walks
script() {    # script PATH MODE OWNER:GROUP
	printf '#!/bin/sh\nexit 0\n' > "$1"
	chown "$3" "$1"
	chmod "$2" "$1"
	files+=("$1"); scripts+=("$1")
}

owners="root:root pcalice:pcshared pcbob:pcbob"
for og in $owners; do
	o=${og%%:*}
	for u in 0 1 4 5; do for g in 0 1 4 5; do for t in 0 1 4 5; do
		# owner write bit too, as real files have it
		script $C/ex/m$u$g$t-$o.sh 0$((u | 2))$g$t $og
	done; done; done
	for m in 0755 0644 0700 0750 0705 0111 0555 0000; do
		script $C/nx/m$m-$o.sh $m $og
	done
done
for m in 0755 0644 0750 0705 0111 0000; do
	script $C/bindsrc/m$m.sh $m pcalice:pcshared
	files+=($C/bindnx/m$m.sh); scripts+=($C/bindnx/m$m.sh)
done
acls=(
	"u::rw-,u:pcalice:r-x,g::r--,m::r-x,o::---"
	"u::rw-,u:pcalice:rwx,g::r--,m::r--,o::---"
	"u::rw-,u:pcalice:rwx,g::---,m::---,o::r-x"
	"u::rw-,g::r--,g:pcshared:r-x,m::rwx,o::r--"
	"u::rw-,g::---,g:pcshared:r--,g:pcalice:--x,m::rwx,o::rwx"
	"u::rw-,g::---,g:pcshared:r--,m::rwx,o::rwx"
	"u::---,u:pcbob:r-x,g::r-x,m::r-x,o::---"
	"u::r-x,u:pcalice:---,g::r-x,m::r-x,o::r-x"
	"u::rwx,u:pcbob:rwx,g::r-x,m::r--,o::---"
)
i=0
for a in "${acls[@]}"; do
	script $C/ex/acl$i.sh 0600 root:pcshared
	setfacl --set "$a" $C/ex/acl$i.sh
	cp -p $C/ex/acl$i.sh $C/nx/acl$i.sh 2>/dev/null
	setfacl --set "$a" $C/nx/acl$i.sh; files+=($C/nx/acl$i.sh); scripts+=($C/nx/acl$i.sh)
	i=$((i + 1))
done
t_eq "ACLs set" "user:pcalice:r-x" "$(getfacl -c $C/ex/acl0.sh 2>/dev/null | grep '^user:pcalice')"
script $C/ex/suid-root.sh 04755 root:root
script $C/ex/sgid-alice.sh 02750 pcalice:pcshared
script $C/ex/suid-bob.sh 04644 pcbob:pcbob
script $C/ex/suidgid-root.sh 06711 root:root

S=$C/special
mkdir -m 0755 $S/dir-root; mkdir -m 0700 $S/dir-alice; chown pcalice $S/dir-alice
mkdir -m 0000 $S/dir-bob; chown pcbob $S/dir-bob
mkfifo -m 0644 $S/fifo-root; mkfifo -m 0600 $S/fifo-alice; chown pcalice $S/fifo-alice
mknod -m 0666 $S/chr-null c 1 3; mknod -m 0600 $S/chr-alice c 1 3; chown pcalice $S/chr-alice
mknod -m 0660 $S/blk-loop0 b 7 0
files+=($S/dir-root $S/dir-alice $S/dir-bob $S/fifo-root $S/fifo-alice $S/chr-null
	$S/chr-alice $S/blk-loop0)
for target in $C/ex/m555-root.sh $C/nx/m0755-pcalice.sh $S/dir-root $S/fifo-root \
	      $S/chr-null $S/blk-loop0 $C/ex/acl0.sh; do
	ln -s "$target" $S/link-$(basename "$target")
	files+=($S/link-$(basename "$target"))
done
# other filesystems: procfs, nsfs, sysfs, tracefs, securityfs, devtmpfs,
# tmpfs nodev, the 9p root
printf '#!/bin/sh\n' > /dev/shm/pc-shm.sh; chmod 0755 /dev/shm/pc-shm.sh
for f in /proc/version /proc/sys/kernel/hostname /proc/self/ns/net \
	 /sys/devices/system/cpu/online /sys/kernel/tracing/README \
	 /dev/null /dev/shm/pc-shm.sh /usr/bin/dash \
	 /usr/share/common-licenses/GPL-3; do
	if [ -e "$f" ]; then files+=("$f"); else t_fail "corpus file $f exists"; fi
done
# securityfs and debugfs when this kernel has them
if [ -d /sys/kernel/security ] && mount -t securityfs securityfs /sys/kernel/security 2>/dev/null &&
   [ -e /sys/kernel/security/lsm ]; then
	files+=(/sys/kernel/security/lsm)
else
	echo "# no securityfs in this kernel"
fi
echo "# corpus: ${#files[@]} files, ${#scripts[@]} scripts, + pipe, memfd, socket fds"

total=0 agree=0
declare -A name_of=([0]=root [2001]=pcalice [2002]=pcbob)
for pol in 0 1 2 3; do
	echo $pol > $POLICY
	t_eq "policy $pol set" $pol "$(cat $POLICY)"
	for uid in 0 2001 2002; do
		declare -A kern=() pred=()
		# (files, not <(...): the VM has no /dev/fd)
		"$PROBE" --as $uid "${files[@]}" > /tmp/pc-kern.txt
		"$P" explain --policy $pol --user $uid "${files[@]}" > /tmp/pc-pred.txt 2> /tmp/pc-explain.err
		while read -r v a b; do
			[ "$v" = error ] && { kern[$b]="error $a"; continue; }
			kern[$a]=$v
		done < /tmp/pc-kern.txt
		while read -r v r p u path; do
			pred[$path]=$v
		done < /tmp/pc-pred.txt
		echo "# policy $pol uid $uid: kernel denies $(grep -c '^deny ' /tmp/pc-kern.txt), allows $(grep -c '^allow ' /tmp/pc-kern.txt) of ${#files[@]}"
		if [ -s /tmp/pc-explain.err ]; then
			t_fail "explain errors: $(cat /tmp/pc-explain.err)"
		fi
		for f in "${files[@]}"; do
			total=$((total + 1))
			# a verdict missing on either side is a disagreement
			if [ -n "${kern[$f]:-}" ] && [ "${kern[$f]}" = "${pred[$f]:-missing}" ]; then
				agree=$((agree + 1))
			else
				echo "# MISMATCH policy=$pol uid=$uid $f: kernel=${kern[$f]:-missing} predicted=${pred[$f]:-missing} ($(stat -c '%A %U:%G' "$f"))"
			fi
		done
		# pipe, memfd and socket fds, created by the subject
		coproc PRB { "$PROBE" --as $uid --hold fd:pipe fd:memfd fd:socket; }
		for k in 1 2 3; do
			read -r v kind procpath <&"${PRB[0]}"
			pv=$("$P" explain --policy $pol --user $uid "$procpath" | awk '{print $1}')
			total=$((total + 1))
			if [ -n "$v" ] && [ "$v" = "$pv" ]; then agree=$((agree + 1)); else
				echo "# MISMATCH policy=$pol uid=$uid $kind: kernel=$v predicted=$pv"
			fi
		done
		exec {PRB[1]}>&-
		wait $PRB_PID 2>/dev/null

		# policyctl check: the denied scripts are the ones the kernel denies
		"$P" check --policy $pol --path $C --user $uid --json --all > /tmp/pc-check.json 2>/dev/null
		want=$(for f in "${scripts[@]}"; do [ "${kern[$f]:-}" = deny ] && echo "$f"; done | sort)
		got=$($PY -c 'import json,sys; print("\n".join(sorted(d["path"] for d in json.load(sys.stdin)["denied"])))' < /tmp/pc-check.json)
		t_eq "policy $pol uid $uid: check denies what the kernel denies ($(echo "$want" | grep -c .) files)" "$want" "$got"
		unset kern pred
	done
done
echo "agreement: $agree/$total"
# ${#files[@]} files x 4 policies x 3 subjects + 3 fds x 4 x 3
t_eq "every verdict compared" $(( (${#files[@]} + 3) * 12 )) $total
t_eq "agreement" "$total/$total" "$agree/$total"
t_done $SUITE
