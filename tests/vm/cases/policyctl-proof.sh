#!/bin/bash
# policyctl's predictions against the real trusted_for(2), in the VM.
#
# A corpus of files (tmpfs mounts with and without noexec, a noexec bind
# mount over an exec directory, every owner/group/other r and x combination
# for files of root and of two users with supplementary groups, POSIX ACLs
# with named users, named groups and masks, setuid/setgid bits, directories,
# fifos, char and block devices, symlinks to each of them; files of procfs,
# nsfs, sysfs, tracefs, devtmpfs, the 9p root, mqueue, cgroup2, bpf (a
# pinned map with BTF, which can be opened), debugfs and securityfs when the
# kernel has them; files reached through /proc/PID/root of a process in
# another mount namespace, on its own noexec and exec tmpfs mounts; and pipe,
# memfd and socket fds) is checked under fs.trust_policy 0..3 for root, the
# owner user and another user:
#   kernel:     probe --as UID -a trusted_for FILE...   (tests/probe: as that user)
#   prediction: policyctl explain --policy N --user UID FILE...
# Only verdicts present on both sides are counted, and that count must equal
# the number of cases the corpus generator made (its own counter, files x 3
# subjects x 4 policies): a file the probe could not open, or one explain
# left out, fails the suite. For the regular script files,
# `policyctl check --json --all` (what an administrator runs) must exit 0 or
# 1 as its denials say, print JSON that jq parses, and deny exactly the files
# the kernel denies.
# Socket *files* cannot be opened (ENXIO), so sockets are probed as fds.
# Then the same corpus against execveat(AT_EXECVE_CHECK) and
# `policyctl explain --model execve_check` / `check --if-restrict-file`
# (files x 3 subjects; see the second half below).
# Needs a host build first: make -C policyctl
SUITE=policyctl-proof
top=$(cd "$(dirname "$0")/../../.." && pwd)
TF_LIB=$top/tests/lib
# shellcheck source=tests/lib/case.sh
. "$TF_LIB/case.sh"
P=$top/build/user/policyctl/policyctl
PROBE=$top/build/user/tests/probe/probe
PIN_MAP=$top/build/user/policyctl/tf-pin-map
POLICY=/proc/sys/fs/trust_policy
PY=/usr/bin/python3

need_build $SUITE "make -C policyctl" "$P" "$PROBE" "$PIN_MAP"
if [ ! -w "$POLICY" ]; then
	t_fail "$POLICY writable (patched kernel, root)"
	t_done $SUITE; exit 1
fi
fx_policy_save

# The users are added to the VM's /etc copy directly: useradd needs fcntl
# locks, which the VM kernel may lack (CONFIG_FILE_LOCKING).
printf 'pcalice:x:2001:2001::/nonexistent:/bin/sh\npcbob:x:2002:2002::/nonexistent:/bin/sh\n' >> /etc/passwd
printf 'pcalice:x:2001:\npcbob:x:2002:\npcshared:x:2100:pcalice\n' >> /etc/group
t_eq "test users" "2001 2002 pcalice pcshared" "$(id -u pcalice) $(id -u pcbob) $(id -nG pcalice)"

C=/tmp/pcproof
mkdir -p $C
mount -t tmpfs -o mode=0755 pcproof $C
mkdir $C/ex $C/nx $C/bindsrc $C/bindnx $C/special $C/mq $C/cg $C/bpf $C/dbg $C/sec \
      $C/nsnx $C/nsex
mount -t tmpfs -o noexec,mode=0755 pcnx $C/nx
mount --bind $C/bindsrc $C/bindnx
mount -o remount,bind,noexec $C/bindnx
nspid=
busy1=
cleanup() {
	[ -n "$busy1" ] && exec {busy1}>&- {busy2}>&- {busy3}>&-
	[ -n "$nspid" ] && kill "$nspid" 2>/dev/null
	rmdir $C/cg/pcproof 2>/dev/null
	umount $C/sec $C/dbg $C/bpf $C/cg $C/mq $C/bindnx $C/nx 2>/dev/null
	umount $C 2>/dev/null
}
fx_at_exit cleanup

# verdict_case PREFIX WHAT KERNEL PREDICTED [FILE]: one case of the
# comparison, counted in ${PREFIX}missing when a side has no verdict, else
# in ${PREFIX}both, and in ${PREFIX}agree when the two agree; a missing
# verdict and a mismatch are printed (WHAT names the case, FILE's mode,
# owner and type are added to a mismatch).
verdict_case() {
	local -n vc_missing=${1}missing vc_both=${1}both vc_agree=${1}agree
	if [ -z "$3" ] || [ -z "$4" ]; then
		vc_missing=$((vc_missing + 1))
		echo "# MISSING $2: kernel=${3:-missing} predicted=${4:-missing}"
		return
	fi
	vc_both=$((vc_both + 1))
	if [ "$3" = "$4" ]; then
		vc_agree=$((vc_agree + 1))
	else
		echo "# MISMATCH $2: kernel=$3 predicted=$4${5:+ ($(stat -L -c '%A %U:%G %T' "$5"))}"
	fi
}
# check_denied WHAT VERB WANT: the policyctl check just run
# (/tmp/pc-check.json, its exit status in rc) gives JSON that parses, exits
# 1 when it VERBs a script, else 0, and VERBs the scripts WANT lists (sorted).
check_denied() {
	local got
	if got=$(jq -r '.denied[].path' < /tmp/pc-check.json); then
		got=$(echo "$got" | sort)
		t_ok "$1 --json output parses"
	else
		t_fail "$1 --json output parses: $(head -c 300 /tmp/pc-check.json) $(cat /tmp/pc-check.err)"
		got=unparsable
	fi
	t_eq "$1 exits 1 when it $2, else 0" "$([ -n "$3" ] && echo 1 || echo 0)" "$rc"
	t_eq "$1 $2 what the kernel $2 ($(echo "$3" | grep -c .) files)" "$3" "$got"
}

# The generator counts what it makes (made), independently of the lists the
# comparison walks: those are read back from the file system (find) or
# named explicitly, and every entry must get a verdict on both sides.
made=0
script() {    # script PATH MODE OWNER:GROUP
	made=$((made + 1))
	printf '#!/bin/sh\nexit 0\n' > "$1"
	chown "$3" "$1"
	chmod "$2" "$1"
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
# bindsrc/X and bindnx/X are the same inode, on an exec and a noexec mount
for m in 0755 0644 0750 0705 0111 0000; do
	script $C/bindsrc/m$m.sh $m pcalice:pcshared
	made=$((made + 1))    # the same file, reached as $C/bindnx/m$m.sh
done
# Files open for writing (a descriptor of this shell, inherited by every
# command it starts): AT_EXECVE_CHECK refuses them with ETXTBSY once the
# open for execution succeeded (so a subject without the permission still
# gets EACCES); trusted_for does not care.
script $C/ex/busy0755-root.sh 0755 root:root
script $C/ex/busy0750-alice.sh 0750 pcalice:pcshared
script $C/nx/busy0755-root.sh 0755 root:root
exec {busy1}>>$C/ex/busy0755-root.sh {busy2}>>$C/ex/busy0750-alice.sh \
	{busy3}>>$C/nx/busy0755-root.sh
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
	script $C/nx/acl$i.sh 0600 root:pcshared
	setfacl --set "$a" $C/nx/acl$i.sh
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
made=$((made + 8))
for target in $C/ex/m555-root.sh $C/nx/m0755-pcalice.sh $S/dir-root $S/fifo-root \
	      $S/chr-null $S/blk-loop0 $C/ex/acl0.sh; do
	ln -s "$target" "$S/link-$(basename "$target")"
	made=$((made + 1))
done

# Everything made below $C so far, read back from the file system.
# (through files, not <(...): /dev/fd may be missing in the VM)
find $C/ex $C/nx $C/bindsrc $C/bindnx -mindepth 1 -type f | sort > /tmp/pc-scripts.txt
find $C/ex $C/nx $C/bindsrc $C/bindnx $S -mindepth 1 | sort > /tmp/pc-files.txt
mapfile -t scripts < /tmp/pc-scripts.txt
mapfile -t files < /tmp/pc-files.txt

# Other filesystems, named one by one (each counted as made): procfs, nsfs,
# sysfs, tracefs, devtmpfs, tmpfs, the 9p root.
ext() { made=$((made + 1)); files+=("$1"); }
printf '#!/bin/sh\n' > /dev/shm/pc-shm.sh; chmod 0755 /dev/shm/pc-shm.sh
for f in /proc/version /proc/sys/kernel/hostname /proc/self/ns/net \
	 /sys/devices/system/cpu/online /sys/kernel/tracing/README \
	 /dev/null /dev/shm/pc-shm.sh /usr/bin/dash \
	 /usr/share/common-licenses/GPL-3; do
	ext "$f"
done
have_fs() { grep -qw "$1" /proc/filesystems; }
# mqueue: a queue is a regular file of a kern_mount()ed (SB_KERNMOUNT),
# SB_I_NOEXEC superblock
if have_fs mqueue && mount -t mqueue pcmq $C/mq; then
	for q in "pcq-root 0644 root:root" "pcq-alice 0750 pcalice:pcshared" "pcq-x 0755 root:root"; do
		set -- $q
		: > $C/mq/$1; chmod $2 $C/mq/$1; chown $3 $C/mq/$1
		ext $C/mq/$1
	done
else
	t_fail "mqueue mount (CONFIG_POSIX_MQUEUE is in kernel/config/vm.config)"
fi
# cgroup2 (kernfs): SB_I_NOEXEC, but not a pseudo fs
if have_fs cgroup2 && mount -t cgroup2 pccg $C/cg && mkdir $C/cg/pcproof; then
	chown pcalice $C/cg/pcproof/cgroup.procs
	for f in $C/cg/cgroup.procs $C/cg/cgroup.controllers $C/cg/pcproof \
		 $C/cg/pcproof/cgroup.procs; do
		ext $f
	done
else
	t_fail "cgroup2 mount and a child cgroup (CONFIG_CGROUPS is in kernel/config/vm.config)"
fi
# bpf: a plain superblock; a directory and pinned maps (regular files)
if have_fs bpf && mount -t bpf pcbpf $C/bpf; then
	mkdir -m 0755 $C/bpf/dir; ext $C/bpf/dir
	for m in "map-root 0600 root:root" "map-alice 0750 pcalice:pcshared" "map-x 0755 root:root"; do
		set -- $m
		"$PIN_MAP" $C/bpf/$1 && chmod $2 $C/bpf/$1 && chown $3 $C/bpf/$1
		ext $C/bpf/$1
	done
else
	t_fail "bpf mount (CONFIG_BPF_SYSCALL is in kernel/config/vm.config)"
fi
# debugfs and securityfs: simple_pin_fs() superblocks (SB_KERNMOUNT)
if have_fs debugfs && mount -t debugfs pcdbg $C/dbg; then
	find $C/dbg -maxdepth 2 -type f -perm -0400 | sort | head -n 3 > /tmp/pc-dbg.txt
	mapfile -t dbg < /tmp/pc-dbg.txt
	if [ ${#dbg[@]} -gt 0 ]; then
		for f in "${dbg[@]}"; do ext "$f"; done
	else
		t_fail "debugfs holds a readable file"
	fi
else
	t_skip "debugfs files: this kernel has no debugfs (CONFIG_DEBUG_FS is not set in kernel/config/vm.config)"
fi
if have_fs securityfs && mount -t securityfs pcsec $C/sec; then
	ext $C/sec/lsm
else
	t_skip "securityfs files: this kernel has no securityfs (CONFIG_SECURITYFS is not set in kernel/config/vm.config)"
fi
# Another mount namespace: a process with its own noexec and exec tmpfs
# mounts, whose files are reached through /proc/PID/root.
rm -f $C/nsready
unshare -m --propagation private sh -c '
	C=$1
	mount -t tmpfs -o noexec,mode=0755 pcnsnx $C/nsnx &&
	mount -t tmpfs -o mode=0755 pcnsex $C/nsex || exit 1
	for f in "nsnx/a.sh 0755 root:root" "nsnx/b.sh 0644 root:root" \
		 "nsnx/c.sh 0750 pcalice:pcshared" "nsex/d.sh 0755 root:root" \
		 "nsex/e.sh 0700 pcalice:pcshared"; do
		set -- $f
		printf "#!/bin/sh\n" > $C/$1; chmod $2 $C/$1; chown $3 $C/$1
	done
	: > $C/nsready
	exec sleep 3600' sh $C &
nspid=$!
wait_for 10 test -e $C/nsready
t_eq "other mount namespace ready" yes "$([ -e $C/nsready ] && echo yes)"
t_eq "its mounts are not ours" "" "$(find $C/nsnx $C/nsex -mindepth 1)"
for f in nsnx/a.sh nsnx/b.sh nsnx/c.sh nsex/d.sh nsex/e.sh; do
	ext /proc/$nspid/root$C/$f
done

fds=(fd:pipe fd:memfd fd:socket)
echo "# corpus: made $made files (${#files[@]} listed, ${#scripts[@]} scripts) + ${#fds[@]} fds"
t_eq "every file made is listed" "$made" "${#files[@]}"

both=0 agree=0 missing=0
for pol in 0 1 2 3; do
	echo $pol > $POLICY
	t_eq "policy $pol set" $pol "$(cat $POLICY)"
	for uid in 0 2001 2002; do
		declare -A kern=() pred=()
		# (files, not <(...): the VM has no /dev/fd)
		"$PROBE" --as $uid -a trusted_for "${files[@]}" > /tmp/pc-kern.txt
		"$P" explain --policy $pol --user $uid "${files[@]}" > /tmp/pc-pred.txt 2> /tmp/pc-explain.err
		while IFS=$'\t' read -r v e api a b; do
			case $v in allow|deny) kern[$a]=$v ;; *) echo "# probe: $v $e $api $a $b" ;; esac
		done < /tmp/pc-kern.txt
		while read -r v r p u path; do
			case $v in allow|deny) pred[$path]=$v ;; esac
		done < /tmp/pc-pred.txt
		echo "# policy $pol uid $uid: kernel denies $(grep -c '^deny' /tmp/pc-kern.txt), allows $(grep -c '^allow' /tmp/pc-kern.txt) of ${#files[@]}"
		if [ -s /tmp/pc-explain.err ]; then
			t_fail "explain errors: $(cat /tmp/pc-explain.err)"
		fi
		for f in "${files[@]}"; do
			verdict_case "" "policy=$pol uid=$uid $f" "${kern[$f]:-}" "${pred[$f]:-}" "$f"
		done
		# pipe, memfd and socket fds, created by the subject
		coproc PRB { "$PROBE" --as $uid -a trusted_for --hold "${fds[@]}"; }
		for _ in "${fds[@]}"; do
			v='' kind='' procpath='' pv=''
			IFS=$'\t' read -r v e api kind procpath <&"${PRB[0]}"
			case $v in
			allow|deny)
				pv=$("$P" explain --policy $pol --user $uid "$procpath" | awk '{print $1}') ;;
			*)	echo "# probe: $v $e $api $kind $procpath"; v= ;;
			esac
			case $pv in allow|deny) ;; *) pv= ;; esac
			verdict_case "" "policy=$pol uid=$uid $kind" "$v" "$pv"
		done
		# shellcheck disable=SC1083,SC2093 # bash: close the coprocess's input fd
		exec {PRB[1]}>&-
		wait $PRB_PID 2>/dev/null

		# policyctl check: exit 0/1 as its denials say, JSON that parses,
		# and the denied scripts are the ones the kernel denies
		"$P" check --policy $pol --path $C --user $uid --json --all > /tmp/pc-check.json 2>/tmp/pc-check.err
		rc=$?
		want=$(for f in "${scripts[@]}"; do [ "${kern[$f]:-}" = deny ] && echo "$f"; done | sort)
		check_denied "policy $pol uid $uid: check" denies "$want"
		unset kern pred
	done
done
# the generator's count, not the loop's: files made x 3 subjects x 4 policies
cases=$(( (made + ${#fds[@]}) * 3 * 4 ))
echo "agreement: $agree/$both, verdicts on both sides: $both of $cases cases, missing: $missing"
t_eq "a verdict on both sides for every case the generator made" "$cases" "$both"
t_eq "no verdict missing on either side" 0 "$missing"
t_eq "agreement" "$both/$both" "$agree/$both"

# --- execveat(AT_EXECVE_CHECK) --------------------------------------------
# The same corpus, for the same three subjects:
#   kernel:     probe --as UID -a execve_check FILE...
#   prediction: policyctl explain --model execve_check --user UID FILE...
# The kernel's answer is allow, deny (EACCES) or busy (deny ETXTBSY); the
# prediction's deny with reason write_busy is "busy". fs.trust_policy must
# not change AT_EXECVE_CHECK: the probe asks under policies 0 and 3, and the
# two answers must be the same. `policyctl check --if-restrict-file` (what
# would break with SECBIT_EXEC_RESTRICT_FILE set) must refuse exactly the
# scripts the kernel refuses.
# (a kernel without it fails the counts below, once, instead of every case)
ec_uids="0 2001 2002"
if [ "$("$PROBE" -a execve_check /usr/bin/dash | cut -f1)" != allow ]; then
	t_fail "the kernel answers execveat(AT_EXECVE_CHECK) (issue 11 kernel): $("$PROBE" -a execve_check /usr/bin/dash 2>&1)"
	ec_uids=
fi
ec_both=0 ec_agree=0 ec_missing=0
for uid in $ec_uids; do
	declare -A kern=() pred=()
	echo 0 > $POLICY
	"$PROBE" --as $uid -a execve_check "${files[@]}" > /tmp/pc-kern0.txt
	echo 3 > $POLICY
	"$PROBE" --as $uid -a execve_check "${files[@]}" > /tmp/pc-kern.txt
	t_eq "execve_check uid $uid: the same answers under fs.trust_policy 0 and 3" \
		"$(cat /tmp/pc-kern0.txt)" "$(cat /tmp/pc-kern.txt)"
	"$P" explain --model execve_check --user $uid "${files[@]}" > /tmp/pc-pred.txt 2> /tmp/pc-explain.err
	while IFS=$'\t' read -r v e api a b; do
		[ "$v $e" != "deny ETXTBSY" ] || v=busy
		case $v in allow|deny|busy) kern[$a]=$v ;; *) echo "# probe: $v $e $api $a $b" ;; esac
	done < /tmp/pc-kern.txt
	while read -r v r m u path; do
		case $v in
		allow) pred[$path]=allow ;;
		deny) if [ "$r" = write_busy ]; then pred[$path]=busy; else pred[$path]=deny; fi ;;
		esac
	done < /tmp/pc-pred.txt
	echo "# execve_check uid $uid: kernel denies $(grep -c '^deny' /tmp/pc-kern.txt) (busy $(grep -c $'^deny\tETXTBSY' /tmp/pc-kern.txt)), allows $(grep -c '^allow' /tmp/pc-kern.txt) of ${#files[@]}"
	if [ -s /tmp/pc-explain.err ]; then
		t_fail "explain --model execve_check errors: $(cat /tmp/pc-explain.err)"
	fi
	for f in "${files[@]}"; do
		verdict_case ec_ "execve_check uid=$uid $f" "${kern[$f]:-}" "${pred[$f]:-}" "$f"
	done
	coproc PRB { "$PROBE" --as $uid -a execve_check --hold "${fds[@]}"; }
	for _ in "${fds[@]}"; do
		v='' kind='' procpath='' pv=''
		IFS=$'\t' read -r v e api kind procpath <&"${PRB[0]}"
		[ "$v $e" != "deny ETXTBSY" ] || v=busy
		case $v in
		allow|deny|busy)
			pv=$("$P" explain --model execve_check --user $uid "$procpath" |
			     awk '{print $1 == "deny" && $2 == "write_busy" ? "busy" : $1}') ;;
		*)	echo "# probe: $v $e $api $kind $procpath"; v= ;;
		esac
		case $pv in allow|deny|busy) ;; *) pv= ;; esac
		verdict_case ec_ "execve_check uid=$uid $kind" "$v" "$pv"
	done
	# shellcheck disable=SC1083,SC2093 # bash: close the coprocess's input fd
	exec {PRB[1]}>&-
	wait $PRB_PID 2>/dev/null

	"$P" check --if-restrict-file --path $C --user $uid --json --all > /tmp/pc-check.json 2>/tmp/pc-check.err
	rc=$?
	want=$(for f in "${scripts[@]}"; do case ${kern[$f]:-} in deny|busy) echo "$f" ;; esac; done | sort)
	check_denied "execve_check uid $uid: check --if-restrict-file" refuses "$want"
	unset kern pred
done
# the generator's count: files made x 3 subjects (no policy)
ec_cases=$(( (made + ${#fds[@]}) * 3 ))
echo "execve_check agreement: $ec_agree/$ec_both, verdicts on both sides: $ec_both of $ec_cases cases, missing: $ec_missing"
t_eq "execve_check: a verdict on both sides for every case the generator made" "$ec_cases" "$ec_both"
t_eq "execve_check: no verdict missing on either side" 0 "$ec_missing"
t_eq "execve_check: agreement" "$ec_both/$ec_both" "$ec_agree/$ec_both"
t_done $SUITE
