#!/bin/bash
# policyctl command line on the host, as root: bad input (usage errors,
# exit 2) and --help (stdout, exit 0), status (text, JSON, the exec
# securebits it inherits), apply and rollback refusing on a kernel without
# trusted_for, hostile file and mount names (escaped on the terminal, exact
# in JSON), the check report and exit statuses on a staged tmpfs tree (the
# walker threads, io_uring or not, another user), explain (any file type,
# other mount namespaces, a chroot, kernel-internal mounts), and check
# --if-restrict-file against the kernel's AT_EXECVE_CHECK. Mounts are made
# in a private mount namespace (tests/lib/mountns.sh).
# usage: POLICYCTL=path/to/policyctl bash tests/cli.sh
# Longer than 400 lines: one suite for the whole command line; its checks
# share the staged tree and the private mount namespace.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
P=${POLICYCTL:-$top/build/user/policyctl/policyctl}
PY=/usr/bin/python3

. "$top/tests/lib/mountns.sh"
export POLICYCTL="$P"
mountns_reexec bash "$0" "$@"
. "$top/tests/lib/assert.sh"
. "$top/tests/lib/run.sh"
. "$top/tests/lib/wait.sh"
SUITE=policyctl-cli

tmp=$(mktemp -d /tmp/pc-cli.XXXXXX)
trap 'umount -R "$tmp/t" "$tmp/crfs" 2>/dev/null; rm -rf "$tmp"' EXIT

run_files "$tmp"
# usage_error WHAT PATTERN: exit 2, one stderr line matching PATTERN
usage_error() {
	t_eq "$1: exit 2" 2 "$rc"
	t_eq "$1: one line on stderr" 1 "$(grep -c '' "$tmp/err")"
	if grep -q -- "$2" "$tmp/err"; then t_ok "$1: names the problem"; else
		t_fail "$1: stderr '$err' lacks '$2'"; fi
}

# --- usage errors -----------------------------------------------------------
for bad in 4 -1 x 3x "" 03; do
	run "$P" check --policy "$bad"
	usage_error "check --policy '$bad'" "give 0, 1, 2 or 3"
done
run "$P" check
t_eq "check without --policy: exit 2" 2 "$rc"
run "$P" frobnicate
usage_error "unknown command" "unknown command 'frobnicate'"
run "$P" check --policy 3 --user no-such-user-pc
usage_error "--user unknown" "no such user"
run "$P" check --policy 3 --user 4294967295
usage_error "--user (uid_t)-1" "not a valid uid (0..4294967294)"
run "$P" explain --policy 3 --user "" /etc/hostname
usage_error "--user empty" "empty user name"
run "$P" check --policy 3 --path /nonexistent/pc
usage_error "--path missing" "No such file or directory"
run "$P" check --policy 3 --exclude /nonexistent/pc
usage_error "--exclude missing" "No such file or directory"
run "$P" explain --policy 9 /etc/hostname
usage_error "explain --policy 9" "give 0, 1, 2 or 3"
run "$P" explain --model bogus /etc/hostname
usage_error "explain --model bogus" "explain: --model 'bogus' is not a model; give trusted_for or execve_check"
run "$P" check --policy 3 --bogus
t_eq "unknown option: exit 2" 2 "$rc"
# hostile bytes in what the user typed reach stderr escaped, in one line
raw_ctl() { LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/err"; }
run "$P" $'frob\e[2J\nicate'
usage_error "hostile command name" 'unknown command .frob\\x1b\[2J\\nicate.'
if raw_ctl; then t_fail "hostile command name: raw control bytes on stderr"; else t_ok "hostile command name: escaped"; fi
run "$P" check --policy 3 $'--bo\egus'
t_eq "hostile option: exit 2" 2 "$rc"
if grep -q 'unknown option .--bo\\x1bgus.$' "$tmp/err"; then t_ok "hostile option: named"
else t_fail "hostile option: stderr '$err'"; fi
if raw_ctl; then t_fail "hostile option: raw control bytes on stderr"; else t_ok "hostile option: escaped"; fi
run "$P" check --policy 3 --path $'/nonexistent/\e]0;x\a'
usage_error "hostile --path" '/nonexistent/\\x1b\]0;x\\x07: No such file'
if raw_ctl; then t_fail "hostile --path: raw control bytes on stderr"; else t_ok "hostile --path: escaped"; fi

# --help: the usage on stdout, nothing on stderr, exit 0, for every command
for cmd in status check explain apply rollback; do
	run "$P" "$cmd" --help
	t_eq "$cmd --help: exit 0" 0 "$rc"
	if [ -z "$err" ] && grep -q "^usage: policyctl $cmd" "$tmp/out"; then
		t_ok "$cmd --help: usage on stdout"
	else t_fail "$cmd --help: stdout '$out' stderr '$err'"; fi
done
# getopt's own message is off in every command (opterr = 0): one line
run "$P" status --bogus
usage_error "status --bogus" "unknown option '--bogus'"
# the option getopt refused, as written: not the word before it ('status'
# for -xj once), not with its value
run "$P" status -xj
usage_error "status -xj" "status: unknown option '-x'; usage: policyctl status"
run "$P" rollback --sta
usage_error "rollback --sta" "rollback: option '--sta' needs a value; usage: policyctl rollback"
# first_line WHAT NEEDLE: exit 2, NEEDLE in the first line of stderr
# (check and explain print their usage after it)
first_line() {
	t_eq "$1: exit 2" 2 "$rc"
	if head -n 1 "$tmp/err" | grep -q -- "$2"; then t_ok "$1: names the option"
	else t_fail "$1: stderr '$err' lacks '$2'"; fi
}
run "$P" check --policy 1 --json=yes
first_line "check --json=yes" "check: option '--json' takes no value$"
run "$P" explain --policy 1 -j --us
first_line "explain --us" "explain: option '--us' needs a value$"
run "$P" explain -zj
first_line "explain -zj" "explain: unknown option '-z'$"

# --- status ------------------------------------------------------------------
# the test probe (tests/probe): what the kernel offers, asked directly
PROBE=${TF_PROBE:-$(dirname "$(dirname "$P")")/tests/probe/probe}
run "$P" status
t_eq "status: exit 0" 0 "$rc"
if [ -e /proc/sys/fs/trust_policy ]; then want=True; else want=False; fi
if grep -q "not in this kernel" "$tmp/out"; then got=False; else got=True; fi
t_eq "status text says whether trusted_for exists" "$want" "$got"
run "$P" status --json
t_eq "status --json: exit 0" 0 "$rc"
got=$($PY -c 'import json,sys; d=json.load(sys.stdin); print(d["trusted_for"], d["execve_check"])' < "$tmp/out")
# The kernel's own answer (the test probe, not policyctl) for both fields.
ec=False
"$PROBE" --kernel | grep -qw execve_check && ec=True
t_eq "status --json fields = the kernel's (probe --kernel)" "$want $ec" "$got"
t_eq "status text says whether AT_EXECVE_CHECK is there, as the kernel" "$ec" \
	"$(grep -q "AT_EXECVE_CHECK:  available" <("$P" status) && echo True || echo False)"

# --- apply / rollback on a kernel without trusted_for -----------------------
if [ ! -e /proc/sys/fs/trust_policy ]; then
	export POLICYCTL_STATE=$tmp/state POLICYCTL_SYSCTL_CONF=$tmp/60.conf
	run "$P" apply --policy 3 --persist
	usage_error "apply without trusted_for" "no trusted_for(2)"
	t_eq "apply without trusted_for: nothing written" "" "$(find "$tmp" -mindepth 1 -maxdepth 1 \( -name 'state*' -o -name '60?conf*' \) -printf '%f\n')"
	run "$P" rollback
	usage_error "rollback without trusted_for" "no trusted_for(2)"
	run "$P" apply --policy 5
	usage_error "apply --policy 5" "give 0, 1, 2 or 3"
	unset POLICYCTL_STATE POLICYCTL_SYSCTL_CONF
else
	# The 10 checks above, counted as skipped (one SKIPPED line for them).
	T_SKIP=$((T_SKIP + 9))
	t_skip "apply and rollback refused without trusted_for (10 checks): this kernel has trusted_for (the VM case policyctl-apply tests apply on it)"
fi

# --- a staged tree -------------------------------------------------------------
t=$tmp/t
mkdir "$t"
mount -t tmpfs -o mode=0755 pccli "$t" || { t_fail "mount tmpfs"; t_done policyctl-cli; exit; }
hostile=$'evil\e[31m\x01 name\twith\nnewline\\and\xff.sh'
printf '#!/bin/sh\n' > "$t/ok.sh"; chmod 0755 "$t/ok.sh"
printf 'echo\n' > "$t/$hostile"; chmod 0644 "$t/$hostile"
printf 'data\n' > "$t/data.txt"
ln -s loop "$t/loop"; ln -s loop2 "$t/loop1"; ln -s loop1 "$t/loop2"
mkfifo "$t/fifo.sh"
mkdir -p "$t/clean" "$t/skip" "$t/ne"
printf '#!/bin/sh\n' > "$t/clean/fine.sh"; chmod 0755 "$t/clean/fine.sh"
printf '#!/bin/sh\n' > "$t/skip/bad.sh"; chmod 0644 "$t/skip/bad.sh"
mp=$'/mnt\nwith space'
mkdir -p "$t/ne$mp"
mount -t tmpfs -o noexec,mode=0755 pcne "$t/ne$mp"
printf '#!/bin/sh\n' > "$t/ne$mp/x.sh"; chmod 0755 "$t/ne$mp/x.sh"
useradd_uid=4242
printf '#!/bin/sh\n' > "$t/user.sh"; chmod 0600 "$t/user.sh"; chown $useradd_uid "$t/user.sh"

run "$P" check --policy 3 --path "$t"
t_eq "check staged tree: exit 1 (denials)" 1 "$rc"
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out"; then
	t_fail "text report has raw control bytes"
else
	t_ok "text report has no raw control bytes"
fi
if grep -qF 'evil\x1b[31m\x01 name\twith\nnewline\\and\xff.sh' "$tmp/out"; then
	t_ok "hostile name shown escaped"
else
	t_fail "hostile name not shown escaped: $(grep evil "$tmp/out")"
fi
if grep -qF '/ne/mnt\nwith space' "$tmp/out"; then t_ok "mount point with newline escaped"
else t_fail "mount point escaped"; fi
t_eq "verdict line" "policy 3 would deny 4 of 6 interpreted files, on 2 mounts" "$(tail -n 1 "$tmp/out")"
if grep -q 'user.sh  denied for: root, 4242$' "$tmp/out"; then t_ok "0600 file of uid 4242: denied for root and its owner"
else t_fail "user.sh line: $(grep user.sh "$tmp/out")"; fi

# A filesystem type is chosen by whoever mounts (FUSE: "fuse.<subtype>"):
# the same table, with the noexec mount's type replaced by a hostile one
# (raw bytes, as the kernel writes them: mountinfo only escapes space, tab,
# newline and backslash), read through --mountinfo.
hfst=$'fuse.\e]0;owned\a\e[2J\xff'
awk -v h="$hfst" '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
	if ($(i + 2) == "pcne") $(i + 1) = h; print }' /proc/self/mountinfo > "$tmp/mi"
t_eq "hostile fstype staged in the table copy" 1 "$(grep -c "pcne" "$tmp/mi" | tr -d ' ')"
run "$P" check --policy 3 --path "$t" --mountinfo "$tmp/mi"
t_eq "check with a hostile fstype: exit 1" 1 "$rc"
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out"; then
	t_fail "hostile fstype: raw control bytes reach the terminal: $(grep -a pcne "$tmp/out" | od -c | head -3)"
else
	t_ok "hostile fstype: no raw control bytes in the report"
fi
hdr=$(grep -aF "$t/ne/mnt\\nwith space (" "$tmp/out")
t_eq "hostile fstype: group header shows it escaped" \
	"$t/ne/mnt\\nwith space (fuse.\\x1b]0;owned\\x07\\x1b[2J\\xff): noexec_mount: 1 file" "$hdr"

run "$P" check --policy 3 --path "$t" --json
t_eq "check --json: exit 1" 1 "$rc"
export HOSTILE="$hostile" T="$t" MP="$mp"
got=$($PY - "$tmp/out" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
t = os.environb[b"T"]
want = t + b"/" + os.environb[b"HOSTILE"]
hits = [x for x in d["denied"] if bytes.fromhex(x.get("path_hex", "")) == want]
mps = [m for m in d["mounts"] if m["mount_point"].encode() == t + b"/ne" + os.environb[b"MP"]]
print(len(hits), hits[0]["reasons"] if hits else None, len(mps),
      mps[0]["noexec"] if mps else None, d["walk"]["scripts"], len(d["denied"]))
PYEOF
)
t_eq "JSON: hostile name exact (path_hex), mount point exact" "1 ['file_perm'] 1 True 6 4" "$got"

run "$P" check --policy 3 --path "$t/clean"
t_eq "clean subtree: exit 0" 0 "$rc"
t_eq "clean subtree verdict" "policy 3 would deny none of 1 interpreted files" "$(tail -n 1 "$tmp/out")"
run "$P" check --policy 3 --path "$t" --exclude "$t/skip" --exclude "$t/ne" --user root
t_eq "--exclude + --user root: verdict" "policy 3 would deny 2 of 4 interpreted files, on 1 mount" "$(tail -n 1 "$tmp/out")"
run "$P" check --policy 0 --path "$t"
t_eq "policy 0: nothing denied (root reads all)" 0 "$rc"
run "$P" check --policy 1 --path "$t"
t_eq "policy 1: only the noexec mount" "policy 1 would deny 1 of 6 interpreted files, on 1 mount" "$(tail -n 1 "$tmp/out")"
run "$P" check --policy 2 --path "$t" --user 4242
t_eq "policy 2 as uid 4242: 0644 and its own 0600 denied, noexec ignored" \
	"policy 2 would deny 3 of 6 interpreted files, on 1 mount" "$(tail -n 1 "$tmp/out")"

# top-20 truncation and --all
mkdir "$t/many"
for i in $(seq 1 25); do printf 'x\n' > "$t/many/f$i.sh"; done
run "$P" check --policy 2 --path "$t/many"
t_eq "25 denials: 20 listed" 20 "$(grep -c '/many/f' "$tmp/out")"
if grep -q '\.\.\. and 5 more (--all lists every one)' "$tmp/out"; then t_ok "truncation note"; else t_fail "truncation note"; fi
run "$P" check --policy 2 --path "$t/many" --all
t_eq "--all lists 25" 25 "$(grep -c '/many/f' "$tmp/out")"

# --- many directories: the walker threads work on one tree together --------
# policy 3 without --user (root and each file's owner, looked up as met).
# The generator knows, as it writes them, which files are interpreted (by
# name or by "#!") and which have no x bit (denied to root under policy 3):
# the report must list exactly those, each once, whichever thread met it.
big=$t/big
$PY - "$big" > "$tmp/big.want" <<'PYEOF'
import os, sys
root = sys.argv[1]
interp, denied = 0, []
for a in range(24):
    for b in range(6):
        d = os.path.join(root, "a%d" % a, "b%d" % b)
        os.makedirs(d)
        for i in range(10):
            k = a * 60 + b * 10 + i
            if k % 3 == 0:
                name, data, script = "s%d.py" % k, b"print(1)\n", True
            elif k % 3 == 1:
                name, data, script = "t%d" % k, b"#!/bin/sh\n", True
            else:
                name, data, script = "d%d.txt" % k, b"data\n", False
            mode = 0o644 if k % 4 == 0 else 0o755
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, mode)
            os.chown(path, 4242 if k % 5 == 0 else 0, 0)
            interp += script
            if script and not mode & 0o111:
                denied.append(path)
print(len(denied), interp)
for p in sorted(denied):
    print(p)
PYEOF
read -r want_den want_int < "$tmp/big.want"
# big_check WHAT [CMD PREFIX...]: the check of $big, compared with the generator
big_check() {
	local what=$1
	shift
	run "$@" "$P" check --policy 3 --path "$big" --all
	t_eq "$what: exit 1" 1 "$rc"
	t_eq "$what: verdict" \
		"policy 3 would deny $want_den of $want_int interpreted files, on 1 mount" \
		"$(tail -n 1 "$tmp/out")"
	# lines "  MODE  UID:GID  PATH  denied for: ..."
	grep -F "  $big/" "$tmp/out" | grep -F '  denied for: ' | sed 's/  denied for: .*$//; s/^.*  \//\//' | sort > "$tmp/big.got"
	if tail -n +2 "$tmp/big.want" | cmp -s - "$tmp/big.got"; then
		t_ok "$what: exactly the generator's denied files, each once"
	else
		t_fail "$what: listed files differ: $(tail -n +2 "$tmp/big.want" | diff - "$tmp/big.got" | head -n 4 | tr '\n' ' ')"
	fi
}
# regular files are opened (and read when their name does not tell) in
# batches through io_uring where the kernel has it;
# POLICYCTL_NO_IO_URING=1: one system call each
big_check "many directories"
big_check "many directories, no io_uring" env POLICYCTL_NO_IO_URING=1
# As uid 4242 (owning none of these files but the k % 5 == 0 ones): the
# batched opens with O_NOATIME fail (EPERM) and are redone one by one without
# it; a file it may not open at all is reported, not counted.
printf '#!/bin/sh\n' > "$big/a0/b0/locked"
chmod 0000 "$big/a0/b0/locked"
chmod 0711 "$tmp"
big_check "many directories as uid 4242" setpriv --reuid 4242 --regid 4242 --clear-groups
if grep -qxF "  $big/a0/b0/locked: cannot open: Permission denied" "$tmp/out"; then
	t_ok "many directories as uid 4242: the unopenable file reported"
else
	t_fail "many directories as uid 4242: no 'cannot open' line for a0/b0/locked"
fi

# explain: any file type, one line per subject
run "$P" explain --policy 1 "$t/fifo.sh"
t_eq "explain fifo: exit 1" 1 "$rc"
t_eq "explain fifo line" "deny  not_regular policy=1 user=root $t/fifo.sh" "$out"
run "$P" explain --policy 3 --user 4242 --user root "$t/user.sh"
t_eq "explain two users" "deny  file_perm policy=3 user=4242 $t/user.sh
deny  file_perm policy=3 user=root $t/user.sh" "$out"
chmod 0700 "$t/user.sh"
run "$P" explain --policy 3 --user 4242 --user root "$t/user.sh"
t_eq "explain 0700: root may (some x bit)" "allow - policy=3 user=4242 $t/user.sh
allow - policy=3 user=root $t/user.sh" "$out"
run "$P" explain --policy 3 "$t/loop"
usage_error "explain symlink loop" "Too many levels of symbolic links"

# explain through /proc/PID/root of a process in another mount namespace:
# its noexec tmpfs is not in our mountinfo, but in /proc/PID/mountinfo
mkdir "$t/otherns"
rm -f "$tmp/nsready"
unshare -m --propagation private sh -c '
	mount -t tmpfs -o noexec,mode=0755 pcotherns "$1/otherns" || exit 1
	printf "#!/bin/sh\n" > "$1/otherns/o.sh"; chmod 0755 "$1/otherns/o.sh"
	: > "$2/nsready"; exec sleep 600' sh "$t" "$tmp" &
nspid=$!
wait_for 10 test -e "$tmp/nsready"
run "$P" explain --policy 2 --user root "/proc/$nspid/root$t/otherns/o.sh"
t_eq "other mount namespace, policy 2: its tmpfs is a normal mount (not a pseudo fs)" \
	"allow - policy=2 user=root /proc/$nspid/root$t/otherns/o.sh" "$out"
run "$P" explain --policy 1 --user root "/proc/$nspid/root$t/otherns/o.sh"
t_eq "other mount namespace, policy 1: its mount is noexec" \
	"deny  noexec_mount policy=1 user=root /proc/$nspid/root$t/otherns/o.sh" "$out"
kill "$nspid"; wait "$nspid" 2>/dev/null

# explain inside a chroot (unshare -m + chroot, as a debootstrap tree): the
# mount holding the chroot's root has its mount point outside the root, so
# the chroot's /proc/self/mountinfo omits it. Expected verdicts from the
# model (trusted_for, policy 3, root): 0755 allowed (an x bit lets
# CAP_DAC_OVERRIDE exec), 0644 denied file_perm (no x bit), a 0755 file on a
# noexec tmpfs denied noexec_mount; none of them is a pseudo fs.
crfs=$tmp/crfs cr=$tmp/crfs/root
mkdir "$crfs"
mount -t tmpfs -o mode=0755 pccrfs "$crfs"
mkdir -p "$cr/usr" "$cr/etc" "$cr/proc" "$cr/ne" "$cr/tool"
for d in usr etc; do mount --bind -o ro "/$d" "$cr/$d"; done
for l in bin lib lib64 sbin; do [ -L "/$l" ] && ln -s "$(readlink "/$l")" "$cr/$l"; done
mount -t tmpfs -o mode=0755 pccrtool "$cr/tool" # stays exec when / is not
cp "$P" "$cr/tool/policyctl"
mount -t proc proc "$cr/proc"
mount -t tmpfs -o noexec,mode=0755 pccrne "$cr/ne"
printf '#!/bin/sh\n' > "$cr/x755.sh"; chmod 0755 "$cr/x755.sh"
printf '#!/bin/sh\n' > "$cr/x644.sh"; chmod 0644 "$cr/x644.sh"
printf '#!/bin/sh\n' > "$cr/ne/x.sh"; chmod 0755 "$cr/ne/x.sh"
# the precondition of the bug: no mountinfo entry for / inside the chroot
t_eq "chroot: its root's mount is not in its mountinfo" 0 \
	"$(chroot "$cr" /usr/bin/awk '$5 == "/"' /proc/self/mountinfo | grep -c '')"
run chroot "$cr" /tool/policyctl explain --policy 3 --user root /x755.sh
t_eq "chroot: 0755 file, policy 3: allowed (not pseudo_fs)" \
	"0 allow - policy=3 user=root /x755.sh" "$rc $out"
run chroot "$cr" /tool/policyctl explain --policy 3 --user root /x644.sh
t_eq "chroot: 0644 file, policy 3: denied file_perm only" \
	"1 deny  file_perm policy=3 user=root /x644.sh" "$rc $out"
run chroot "$cr" /tool/policyctl explain --policy 1 --user root /x644.sh
t_eq "chroot: 0644 file, policy 1: allowed (root reads it)" \
	"0 allow - policy=1 user=root /x644.sh" "$rc $out"
run chroot "$cr" /tool/policyctl explain --policy 3 --user root /ne/x.sh
t_eq "chroot: 0755 file on a noexec tmpfs: denied noexec_mount" \
	"1 deny  noexec_mount policy=3 user=root /ne/x.sh" "$rc $out"
# check walks the root's mount too (an entry made from statx/statfs of /)
mkdir "$cr/s"
printf '#!/bin/sh\n' > "$cr/s/a.sh"; chmod 0755 "$cr/s/a.sh"
printf '#!/bin/sh\n' > "$cr/s/b.sh"; chmod 0644 "$cr/s/b.sh"
run chroot "$cr" /tool/policyctl check --policy 3 --user root --path /s
t_eq "chroot: check --path on the root's mount: 0644 denied, 0755 not" \
	"1 policy 3 would deny 1 of 2 interpreted files, on 1 mount" "$rc $(tail -n 1 "$tmp/out")"
if grep -q '^  0644  0:0  /s/b.sh  denied for: root$' "$tmp/out"; then t_ok "chroot: check lists /s/b.sh"
else t_fail "chroot: check output: $out $err"; fi
mount -o remount,noexec "$crfs"
run chroot "$cr" /tool/policyctl explain --policy 1 --user root /x755.sh
t_eq "chroot: root's mount remounted noexec: denied noexec_mount (statfs)" \
	"1 deny  noexec_mount policy=1 user=root /x755.sh" "$rc $out"
mount -o remount,exec "$crfs"
# a file outside the root (an fd opened before chroot), on a mount listed
# nowhere inside: no guess, one line saying why
run chroot "$cr" /tool/policyctl explain --policy 3 --user root /proc/self/fd/3 3< "$t/ok.sh"
usage_error "chroot: fd to a file outside the root" "cannot tell whether it is a pseudo filesystem"
t_eq "chroot: fd outside the root: no verdict" "" "$out"
umount -R "$crfs"

# kernel-internal mounts (kern_mount(): SB_KERNMOUNT), listed in no
# mountinfo, reached through /proc/self/fd/N: a memfd and a pipe are
# pseudo_fs under any non-zero policy (the kernel patch's rule)
got=$($PY - "$P" <<'PYEOF'
import os, subprocess, sys
m = os.memfd_create("pc-cli"); r, w = os.pipe()
out = []
for fd in (m, r):
    p = subprocess.run([sys.argv[1], "explain", "--policy", "2", "--user", "root",
                        f"/proc/self/fd/{fd}"], pass_fds=[fd], capture_output=True, text=True)
    out.append(f"{p.returncode} {p.stdout.split(' ')[0:3]}")
print("; ".join(out))
PYEOF
)
t_eq "memfd and pipe via /proc/self/fd: pseudo_fs" \
	"1 ['deny', '', 'pseudo_fs']; 1 ['deny', '', 'not_regular,pseudo_fs']" "$got"

# --- check --if-restrict-file: what SECBIT_EXEC_RESTRICT_FILE would break ---
run "$P" check --if-restrict-file --policy 3
usage_error "check --if-restrict-file --policy 3" "execveat(AT_EXECVE_CHECK) has none"
run "$P" check --model frob
usage_error "check --model frob" "give trusted_for or execve_check"
run "$P" apply --if-restrict-file
t_eq "apply --if-restrict-file (apply is for fs.trust_policy): exit 2" 2 "$rc"
if grep -q "unknown option '--if-restrict-file'" "$tmp/err"; then t_ok "apply --if-restrict-file: named"
else t_fail "apply --if-restrict-file: stderr '$err'"; fi
run "$P" explain --model execve_check --policy 3 "$t/ok.sh"
usage_error "explain --model execve_check --policy 3" "execveat(AT_EXECVE_CHECK) has none"
# A staged tree against the running kernel's own AT_EXECVE_CHECK, asked by
# tests/probe as each subject; the count of files is the generator's.
ecn=0
ecs() { ecn=$((ecn + 1)); printf '#!/bin/sh\n' > "$t/ec/$1"; chown "$3" "$t/ec/$1"; chmod "$2" "$t/ec/$1"; }
mkdir "$t/ec"
ecs x0755.sh 0755 0:0; ecs r0644.sh 0644 0:0; ecs xonly0111.sh 0111 0:0
ecs own0700.sh 0700 0:0; ecs nobody0700.sh 0700 65534:65534; ecs g0750.sh 0750 0:65534
ecs busy0755.sh 0755 0:0; ecs busy0700.sh 0700 0:0
exec {wb1}>>"$t/ec/busy0755.sh" {wb2}>>"$t/ec/busy0700.sh" # open for writing: ETXTBSY
if [ "$("$PROBE" -a execve_check "$t/ec/x0755.sh" | cut -f1)" != allow ]; then
	T_SKIP=$((T_SKIP + 9))
	t_skip "check and explain --if-restrict-file against the kernel (10 checks): this kernel has no AT_EXECVE_CHECK (mainline < 6.14 or Debian's 6.1; the VM case policyctl-proof checks it on the trustfor kernel)"
else
	for u in 0 65534; do
		want=$("$PROBE" --as $u -a execve_check "$t"/ec/* | awk -F'\t' '$1 == "deny" {print $4}' | sort)
		nwant=$(grep -c . <<< "$want")
		run "$P" check --if-restrict-file --user $u --path "$t/ec" --json
		t_eq "check --if-restrict-file --user $u: exit status ($nwant refused by the kernel)" \
			"$([ "$nwant" -gt 0 ] && echo 1 || echo 0)" "$rc"
		t_eq "check --if-restrict-file --user $u --json: the files the kernel refuses" \
			"$want" "$(jq -r '.denied[].path' "$tmp/out" | sort)"
		t_eq "check --if-restrict-file --user $u --json: model, no policy" \
			"execve_check null" "$(jq -r '"\(.model) \(.policy)"' "$tmp/out")"
	done
	want=$("$PROBE" --as 65534 -a execve_check "$t"/ec/* | awk -F'\t' '{print $1, $4}')
	run "$P" explain --if-restrict-file --user 65534 "$t"/ec/*
	t_eq "explain --if-restrict-file --user 65534: the kernel's verdicts" \
		"$want" "$(awk '{print $1, $NF}' "$tmp/out")"
	# root sees every process's descriptors; nobody only its own
	run "$P" check --if-restrict-file --path "$t/ec" --json
	t_eq "check --if-restrict-file as root: no process unseen" 0 \
		"$(jq -r '.walk.writers_unseen_processes' "$tmp/out")"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$P" check --if-restrict-file --path "$t/ec"
	if grep -q '^Files open for writing (write_busy): the descriptors of [1-9][0-9]* process' "$tmp/out"; then
		t_ok "check --if-restrict-file as nobody: says it cannot see other processes' writers"
	else
		t_fail "check --if-restrict-file as nobody: no line about unseen writers: $out $err"
	fi
	run "$P" check --if-restrict-file --user 65534 --path "$t/ec"
	t_eq "check --if-restrict-file: the summary line" \
		"with SECBIT_EXEC_RESTRICT_FILE set, interpreters would refuse $nwant of $ecn interpreted files, on 1 mount" \
		"$(tail -n 1 "$tmp/out")"
fi
exec {wb1}>&- {wb2}>&-

# --- status: this process's exec securebits, set by its parent --------------
# (python sets them with prctl, reads them back, then runs policyctl status)
got=$($PY - "$P" <<'PYEOF'
import ctypes, os, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
PR_GET_SECUREBITS, PR_SET_SECUREBITS = 27, 28
def child():
    if libc.prctl(PR_SET_SECUREBITS, 0x100 | 0x800, 0, 0, 0) != 0:
        os._exit(10)
    os.write(1, b"%d\n" % libc.prctl(PR_GET_SECUREBITS, 0, 0, 0, 0))
    os.execv(sys.argv[1], [sys.argv[1], "status"])
pid = os.fork()
if pid == 0:
    child()
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
PYEOF
)
rc=$?
if [ $rc = 10 ]; then
	T_SKIP=$((T_SKIP + 2))
	t_skip "status shows the exec securebits (3 checks): this kernel refuses SECBIT_EXEC_RESTRICT_FILE (no exec securebits before Linux 6.14)"
else
	bits=$(head -n 1 <<< "$got")
	t_eq "status with exec securebits set: exit 0" 0 "$rc"
	t_eq "status: the securebits line (the kernel's value: $bits)" \
		"$(printf 'exec securebits:  0x%x (this process, inherited by what it starts)' "$bits")" \
		"$(grep '^exec securebits:' <<< "$got")"
	t_eq "status: restrict_file on, deny_interactive off but locked" \
		"SECBIT_EXEC_RESTRICT_FILE on; SECBIT_EXEC_DENY_INTERACTIVE off locked" \
		"$(awk '$1 ~ /^SECBIT_EXEC_/ {printf "%s%s %s%s", n++ ? "; " : "", $1, $2, ($3 == "locked" ? " locked" : "")}' <<< "$got")"
fi

t_done policyctl-cli
