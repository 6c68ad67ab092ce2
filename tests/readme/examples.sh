#!/bin/bash
# Run every command of the README's examples block (between the
# "examples:begin" and "examples:end" markers), from the repository root
# with the tools' build directories on PATH, and check each one exactly:
#  - its exit status, and its output, against what an independent source
#    says for this machine: the captured audit log counted with ausearch and
#    grep, the modes of the example files read with find, the kernel's
#    interfaces probed here (the sysctl; execveat(AT_EXECVE_CHECK) of
#    /bin/true through python3's ctypes), the mount options from findmnt,
#    the version of Debian's libpython3.11 (dpkg);
#  - the status written in the README ("# exit N", default 0): it is the
#    one of the usual case (checkout on an exec mount, a kernel that
#    answers) and must equal the documented status of the example's check.
# Every example must have a check below, and every check an example.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. tests/lib/assert.sh
. tests/lib/mountns.sh
. tests/lib/trusttop.sh
# The trusttop examples need tracefs, as on a Debian system (systemd mounts
# it); where this machine has none mounted, in a namespace of our own.
tt_need_tracefs bash "$0" "$@"
SUITE=readme-examples
U=$top/build/user
export PATH=$U/policyctl:$U/trusttop:$U/auditd-plugin:$U/interpreters:$PATH
export LC_ALL=C.UTF-8
log=tests/data/audit-vm-captured.log
scripts=tests/readme/scripts

# --- Independent facts about this machine -------------------------------
has_tf=false has_ec=false
[ -e /proc/sys/fs/trust_policy ] && has_tf=true
[ "$(uname -m)" = x86_64 ] || { t_fail "the AT_EXECVE_CHECK probe below is written for x86_64 (execveat = 322)"; t_done "$SUITE"; exit 1; }
ec=$(/usr/bin/python3 - << 'PY'
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("/bin/true", os.O_RDONLY)
# execveat(fd, "", NULL, NULL, AT_EMPTY_PATH | AT_EXECVE_CHECK): 0 when the
# kernel knows the flag (it only checks), EINVAL when it does not.
r = libc.syscall(322, fd, b"", None, None, 0x1000 | 0x10000)
e = ctypes.get_errno()
print("yes" if r == 0 else "no" if e == 22 else "errno %d" % e)
PY
)
case $ec in
yes) has_ec=true ;;
no) ;;
*) t_fail "AT_EXECVE_CHECK probe: $ec"; t_done "$SUITE"; exit 1 ;;
esac
if $has_tf; then backend=trusted_for; elif $has_ec; then backend=execve_check; else backend=none; fi
policy=
$has_tf && policy=$(cat /proc/sys/fs/trust_policy)
noexec='false'
findmnt -n -o OPTIONS -T "$top/tests/readme" | tr ',' '\n' | grep -qx noexec && noexec=true
mnt='exec'
$noexec && mnt=noexec
echo "# machine: backend $backend${policy:+, fs.trust_policy=$policy}; example files: tests/readme on a mount with $mnt"

# The example files: "interpreted" by name (.sh, .py); x bit from find.
ex_files=("$scripts/notes.py" "$scripts/tool.sh")
# reasons_p3 FILE: the reasons policy 3 denies FILE for root ("" = allowed).
# The kernel stops at the first reason found: a noexec mount is reported
# alone, the permission is checked only on an exec mount (trusted_for(2)).
reasons_p3() {
	if $noexec; then
		echo noexec_mount
	elif [ -z "$(find "$1" -perm /111)" ]; then
		echo file_perm
	fi
}

# --- The checks, one per example ------------------------------------------
# Each sets doc (the README's status) and checks $out and $rc.
declare -A checks
check_for() { checks[$1]=$2; }
# exit_for N: the exit status of a check with N denials (1 when any, else 0)
exit_for() { [ "$1" -gt 0 ] && echo 1 || echo 0; }
# t_p3_summary WHAT PREFIX: $cmd refuses what policy 3 refuses to root:
# its exit status, and its last line "PREFIX N of M interpreted files"
t_p3_summary() {
	local f d=0
	for f in "${ex_files[@]}"; do [ -n "$(reasons_p3 "$f")" ] && d=$((d + 1)); done
	t_eq "$cmd: exit status ($d $1 predicted)" "$(exit_for "$d")" "$rc"
	t_eq "$cmd: summary" "$2 $d of ${#ex_files[@]} interpreted files" \
		"$(tail -n 1 <<< "$out" | sed 's/, on [0-9]* mounts*$//')"
}

check_for 'policyctl status' c_status
c_status() {
	doc=0
	t_eq "$cmd: exit status" 0 "$rc"
	t_eq "$cmd: backend line (probe: $backend)" "backend:          $backend" "$(grep '^backend:' <<< "$out")"
}
check_for 'policyctl status --json' c_status_json
c_status_json() {
	doc=0
	t_eq "$cmd: exit status" 0 "$rc"
	t_eq "$cmd: backend, trusted_for, execve_check" "$backend $has_tf $has_ec" \
		"$(jq -r '"\(.backend) \(.trusted_for) \(.execve_check)"' <<< "$out" 2>&1)"
}
check_for "policyctl check --policy 3 --path $scripts" c_check3
c_check3() {
	doc=1
	t_p3_summary denials "policy 3 would deny"
}
check_for "policyctl check --policy 1 --path $scripts --json" c_check1
c_check1() {
	local d=0
	doc=0
	$noexec && d=${#ex_files[@]}
	t_eq "$cmd: exit status" "$(exit_for "$d")" "$rc"
	t_eq "$cmd: scripts and denials over the mounts" "${#ex_files[@]} $d" \
		"$(jq -r '"\([.mounts[].scripts] | add) \([.mounts[].denied] | add)"' <<< "$out" 2>&1)"
}
# AT_EXECVE_CHECK for root: the same first reason as policy 3 (noexec
# mount, else no x bit at all); nobody holds the example files open for
# writing, and no read permission is asked.
check_for "policyctl check --if-restrict-file --user root --path $scripts" c_check_rf
c_check_rf() {
	doc=1
	t_p3_summary refusals "with SECBIT_EXEC_RESTRICT_FILE set, interpreters would refuse"
}
check_for "policyctl explain --policy 3 --user root ${ex_files[*]}" c_explain
c_explain() {
	local f r want='' d=0
	doc=1
	for f in "${ex_files[@]}"; do
		r=$(reasons_p3 "$f")
		if [ -n "$r" ]; then
			want+="deny  $r policy=3 user=root $f"$'\n'; d=$((d + 1))
		else
			want+="allow - policy=3 user=root $f"$'\n'
		fi
	done
	t_eq "$cmd: exit status" "$(exit_for "$d")" "$rc"
	t_eq "$cmd: verdicts" "${want%$'\n'}" "$out"
}
# trusttop: exit 4 on a kernel with neither interface (trusttop(8)).
trusttop_rc() { [ "$backend" = none ] && echo 4 || echo 0; }
check_for 'trusttop -b -n 1 -d 1' c_trusttop_b
c_trusttop_b() {
	doc=0
	t_eq "$cmd: exit status (backend $backend)" "$(trusttop_rc)" "$rc"
	if [ "$backend" = none ]; then
		t_eq "$cmd: no-backend message" "trusttop: no backend on kernel $(uname -r):" \
			"$(head -n 1 <<< "$out" | cut -d' ' -f1-6)"
	else
		t_eq "$cmd: backend in the header (probe: $backend)" "$backend" \
			"$(head -n 1 <<< "$out" | sed -nE 's/.*  backend ([a-z_]+).*/\1/p')"
		t_eq "$cmd: counts line" "Checks:" "$(sed -n 2p <<< "$out" | cut -d' ' -f1)"
	fi
}
check_for 'trusttop --json -n 1 -d 1' c_trusttop_json
c_trusttop_json() {
	doc=0
	t_eq "$cmd: exit status (backend $backend)" "$(trusttop_rc)" "$rc"
	[ "$backend" = none ] && return
	t_eq "$cmd: backend (probe: $backend)" "$backend" \
		"$(jq -r '.backend | split(" ")[0] | split("+")[0]' <<< "$out" 2>&1)"
}

# The captured log, counted without our tool.
den=$(ausearch -if "$log" -m 1350 --raw 2> /dev/null | grep -c '^type=UNKNOWN\[1350\] ')
chg=$(ausearch -if "$log" -m CONFIG_CHANGE --raw 2> /dev/null | grep -c ' op=trust_policy ')
# Denials per interpreter (exe field; hex when audit encoded it), largest first.
per_exe=$(grep '^type=UNKNOWN\[1350\] ' "$log" | grep -oE ' exe=("[^"]*"|[0-9A-F]+)' |
	sort | uniq -c | awk '{print $1}' | sort -rn | tr '\n' ' ')
n_exe=$(wc -w <<< "$per_exe")
per_reason=$(grep '^type=UNKNOWN\[1350\] ' "$log" | grep -o ' reason=[^ ]*' | sort | uniq -c |
	awk '{sub(/ *reason=/, "", $2); print $1, $2}' | sort -rn | tr '\n' ' ')
# Policy changes in log order, each as "old -> new yes|no auid uid pid" and
# the bytes of its exe and comm in hex (the log's quoted text, or its hex).
fld() { grep -o " $1=[^ ]*" <<< "$2" | head -n 1 | cut -d= -f2-; }
id_text() { [ "$1" = 4294967295 ] && echo unset || echo "$1"; }
log_bytes() { # a logged untrusted string -> its bytes in lower-case hex
	case $1 in
	\"*\") printf '%s' "${1:1:${#1}-2}" | od -An -tx1 | tr -d ' \n' ;;
	*) tr A-F a-f <<< "$1" | tr -d '\n' ;;
	esac
}
changes='' change_names=''
while IFS= read -r rec; do
	changes+="$(fld old "$rec") -> $(fld new "$rec") $([ "$(fld res "$rec" | cut -c1)" = 1 ] && echo yes || echo no)"
	changes+=" $(id_text "$(fld auid "$rec")") $(id_text "$(fld uid "$rec")") $(fld pid "$rec")"$'\n'
	change_names+="$(log_bytes "$(fld exe "$rec")") $(log_bytes "$(fld comm "$rec")")"$'\n'
done < <(grep -a '^type=CONFIG_CHANGE .* op=trust_policy ' "$log")
changes=${changes%$'\n'} change_names=${change_names%$'\n'}
echo "# captured log: $den denials, $chg policy changes, per interpreter: $per_exe"

report_counts() {
	t_eq "$cmd: exit status" 0 "$rc"
	t_eq "$cmd: number of denials (ausearch)" "Number of denials: $den" "$(grep '^Number of denials:' <<< "$out")"
	t_eq "$cmd: number of policy changes (ausearch)" "Number of policy changes: $chg" \
		"$(grep '^Number of policy changes:' <<< "$out")"
}
# section_counts TITLE: the first column of the rows of one table, in order.
section_counts() {
	awk -v t="$1" '$0 == t { s = 1; next } s && /^=+$/ { n++; next }
		s && n == 2 && /^[0-9]+ / { printf "%s ", $1; next }
		s && n == 2 { exit }' <<< "$out"
}
check_for "audisp-trusted-for report --input $log" c_report
c_report() {
	doc=0
	report_counts
	t_eq "$cmd: interpreters (grep exe=)" "Number of interpreters: $n_exe" \
		"$(grep '^Number of interpreters:' <<< "$out")"
	t_eq "$cmd: per-interpreter totals (grep exe=)" "$per_exe" "$(section_counts 'Interpreter Summary Report')"
}
check_for "audisp-trusted-for report -i --input $log --table interpreter,reason" c_report_tables
c_report_tables() {
	doc=0
	report_counts
	t_eq "$cmd: per-interpreter totals (grep exe=)" "$per_exe" "$(section_counts 'Interpreter Summary Report')"
	t_eq "$cmd: per-reason totals (grep reason=)" "$per_reason" \
		"$(awk '$0 == "Reason Summary Report" { s = 1 } s && /^[0-9]+ / { printf "%s %s ", $1, $NF }' <<< "$out")"
	t_eq "$cmd: only the tables asked for" "Interpreter Summary Report Reason Summary Report" \
		"$(grep 'Summary Report$' <<< "$out" | tr '\n' ' ' | sed 's/ $//')"
}
check_for "audisp-trusted-for report --input $log --table policy" c_report_policy
c_report_policy() {
	local row rest got='' names='' exe comm
	doc=0
	report_counts
	# "N. date time node old -> new applied auid uid pid exe (comm)"
	while IFS= read -r row; do
		rest=$(cut -d' ' -f5- <<< "$row")
		got+="$(cut -d' ' -f1-7 <<< "$rest")"$'\n'
		rest=$(cut -d' ' -f8- <<< "$rest")
		exe=${rest% (*} comm=${rest##* (} comm=${comm%)}
		# the escapes (\\ \n \t \r \xHH) undone by printf %b
		names+="$(printf '%b' "$exe" | od -An -tx1 | tr -d ' \n') $(printf '%b' "$comm" | od -An -tx1 | tr -d ' \n')"$'\n'
	done < <(grep -E '^[0-9]+\. ' <<< "$out")
	t_eq "$cmd: policy changes: old -> new, result, auid, uid, pid (grep CONFIG_CHANGE)" "$changes" "${got%$'\n'}"
	t_eq "$cmd: the writers' exe and comm, escaped, are the logged bytes (grep, od)" "$change_names" "${names%$'\n'}"
	t_eq "$cmd: no raw control bytes" 0 "$(LC_ALL=C tr -dc '\000-\011\013-\037\177' <<< "$out" | wc -c)"
}
check_for "audisp-trusted-for report --json --input $log" c_report_json
c_report_json() {
	doc=0
	t_eq "$cmd: exit status" 0 "$rc"
	t_eq "$cmd: denials, interpreter total, distinct" "$den $den $n_exe" \
		"$(jq -r '"\(.denials) \(.tables.interpreter.total) \(.tables.interpreter.distinct)"' <<< "$out" 2>&1)"
	t_eq "$cmd: per-interpreter counts (grep exe=)" "$per_exe" \
		"$(jq -r '[.tables.interpreter.rows[].count] | sort | reverse | map(tostring) | join(" ")' <<< "$out" 2>&1) "
}
# trusted-dash: the kernel's verdict, or without an interface the fallback
# rule (README "When the kernel cannot answer": refuse on noexec mounts).
check_for 'trusted-dash tests/readme/hello.sh' c_dash
c_dash() {
	local why='' x=false
	doc=0
	[ -n "$(find tests/readme/hello.sh -perm /111)" ] && x=true
	case $backend in
	trusted_for)
		if $noexec && [ $((policy & 1)) = 1 ]; then why="on a noexec mount (trusted_for)"
		elif ! $x && [ $((policy & 2)) = 2 ]; then why="no execute permission (trusted_for)"; fi ;;
	execve_check)
		if $noexec; then why="on a noexec mount (AT_EXECVE_CHECK)"
		elif ! $x; then why="no execute permission (AT_EXECVE_CHECK)"; fi ;;
	none) $noexec && why="on a noexec mount (kernel cannot answer, fallback rule)" ;;
	esac
	t_eq "$cmd: exit status (backend $backend${policy:+, policy $policy})" "$([ -n "$why" ] && echo 126 || echo 0)" "$rc"
	if [ -z "$why" ]; then
		t_eq "$cmd: output" "hello from a README example" "$out"
	else
		t_eq "$cmd: refusal" "trusted-dash: 0: tests/readme/hello.sh: refused to interpret: $why" "$out"
	fi
}
# The CPython that trusted-python3 embeds: Debian's libpython3.11.
pyver=$(dpkg-query -W -f='${Version}' libpython3.11 2> /dev/null | sed 's/-[^-]*$//')
check_for 'trusted-python3 --version' c_python
c_python() {
	doc=0
	t_eq "$cmd: exit status" 0 "$rc"
	t_eq "$cmd: version (dpkg: libpython3.11 $pyver)" "Python $pyver" "$out"
}

# --- Run the README's examples ---------------------------------------------
declare -A seen
n=0
while IFS= read -r line; do
	cmd=${line#\$ }
	readme_rc=0
	case $cmd in
	*'# exit '*) readme_rc=${cmd##*# exit }; cmd=${cmd%%# exit *} ;;
	esac
	cmd=$(sed 's/[[:space:]]*$//' <<< "$cmd")
	n=$((n + 1))
	fn=${checks[$cmd]:-}
	if [ -z "$fn" ]; then
		t_fail "README: '$cmd' has no check in tests/readme/examples.sh: add one"
		continue
	fi
	seen[$cmd]=1
	out=$(bash -c "$cmd" 2>&1 < /dev/null)
	rc=$?
	echo "# \$ $cmd  (exit $rc)"
	before=$T_FAIL
	doc=
	"$fn"
	t_eq "$cmd: status in the README" "$doc" "$readme_rc"
	[ "$T_FAIL" = "$before" ] || printf '%s\n' "$out" | head -n 20 | sed 's/^/#   | /'
done < <(sed -n '/<!-- examples:begin -->/,/<!-- examples:end -->/p' README.md | grep '^\$ ')
[ "$n" -gt 0 ] || t_fail "no example found between the README markers"
for cmd in "${!checks[@]}"; do
	[ -n "${seen[$cmd]:-}" ] || t_fail "check for '$cmd' but no such README example"
done
t_done "$SUITE"
