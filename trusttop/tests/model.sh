# shellcheck shell=sh
# trusttop test helpers (sourced): what the running kernel offers, and the
# verdicts the tests expect, written from the specifications (the
# fs.trust_policy documentation and the trusted_for_verdict tracepoint's in
# kernel/patches/, execveat(2) for AT_EXECVE_CHECK, trusttop.8 for how
# trusttop names mainline's refusals), never from trusttop's output.
# Every caller of the checks is root, as the tests are.
#
# Needs WORKLOAD (tests/probe, whose --kernel probes the kernel on its own).

# Reason bits (lib/trustedfor.h) and trusttop's slot names, in slot order.
TT_NOEXEC=1 TT_PERM=2 TT_NOTREG=4 TT_PSEUDO=8 TT_BUSY=16
TT_BITS="1 2 4 8 16 32 64"

# tt_tracefs: trusttop does not mount tracefs (trusttop.8); where it is not
# mounted, the calling suite runs again in a private mount namespace that
# has it, leaving the host's mounts alone.
tt_tracefs() {
	{ [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ] ||
	  [ -n "${TT_TRACEFS_NS:-}" ]; } && return
	TT_TRACEFS_NS=1 exec unshare -m --propagation private sh -c \
		'mount -t tracefs nodev /sys/kernel/tracing && exec sh "$0"' "$0"
}

# tt_detect: BK = the backend trusttop's auto mode must pick here:
# "trusted_for", "execve_check" or "none" (then TT_WHY says why).
tt_detect() {
	tt_tracefs
	has=$("$WORKLOAD" --kernel 2>/dev/null)
	TT_WHY=
	case " $has " in
	*" trusted_for "*) BK=trusted_for; return ;;
	esac
	case " $has " in
	*" execve_check "*)
		BK=execve_check
		# trusttop follows execveat through the sys_exit tracepoint
		# (tracefs: see tt_tracefs).
		for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
			[ -d "$t/events" ] || continue
			if [ ! -d "$t/events/syscalls/sys_exit_execveat" ]; then
				BK=none
				TT_WHY="kernel $(uname -r) has AT_EXECVE_CHECK but no syscall tracepoints (CONFIG_FTRACE_SYSCALLS)"
			fi
			return
		done
		return ;;
	esac
	BK=none
	TT_WHY="kernel $(uname -r) has neither trusted_for(2) (/proc/sys/fs/trust_policy) nor execveat(AT_EXECVE_CHECK) (Linux >= 6.14)"
}

# tt_policy: fs.trust_policy (trusted_for kernels), else -1.
tt_policy() {
	cat /proc/sys/fs/trust_policy 2>/dev/null || echo -1
}

# Kinds of files the tests check:
#   exec    regular, mode 0755, owned by root, on an exec mount
#   noperm  regular, mode 0644, owned by root, on an exec mount
#   noexec  regular, mode 0755, owned by root, on a noexec mount
#   dir     a directory on an exec mount
#   proc    /proc/version (procfs, mode 0444)
#   busy    as exec, but the checker holds it open for writing (probe
#           -w): execve(2) refuses it (ETXTBSY); trusted_for(2) does not
#           look at writers
# tt_model BACKEND POLICY KIND: sets M_DENY (reason bits of the refusal, 0
# when allowed) and M_WOULD (what trusttop reports as would-deny).
tt_model() {
	case $1 in
	execve_check)
		# Mainline refuses what execve() would; trusttop names one
		# reason: not_regular, else noexec_mount (the mount's flag),
		# else pseudo_fs (a filesystem that is never executable),
		# else file_perm. Would-deny = denied.
		case $3 in
		exec) M_DENY=0 ;;
		busy) M_DENY=$TT_BUSY ;;
		noperm) M_DENY=$TT_PERM ;;
		noexec) M_DENY=$TT_NOEXEC ;;
		dir) M_DENY=$TT_NOTREG ;;
		proc)
			if findmnt -n -o VFS-OPTIONS -T /proc/version | grep -Eq '(^|,)noexec(,|$)'; then
				M_DENY=$TT_NOEXEC
			else
				M_DENY=$TT_PSEUDO
			fi ;;
		esac
		M_WOULD=$M_DENY ;;
	trusted_for)
		M_DENY=$(tt_tf_static "$2" "$3")
		if [ "$M_DENY" -eq 0 ] && [ $(($2 & 2)) -ne 0 ] && [ "$3" = noperm ]; then
			M_DENY=$TT_PERM # no x bit: even root may not execute it
		fi
		# Policy 3's verdict, but the permission part is always
		# computed (root: needs an x bit), except for non-regular files.
		M_WOULD=$(tt_tf_static 3 "$3")
		case $3 in
		noperm|proc) M_WOULD=$((M_WOULD | TT_PERM)) ;;
		esac ;;
	esac
}

# trusted_for's reasons that need no permission check: any policy refuses
# non-regular files and pseudo filesystems (procfs), bit 0 noexec mounts
# (procfs is one: never executable).
tt_tf_static() {
	[ "$1" -eq 0 ] && { echo 0; return; }
	case $2 in
	dir) echo $TT_NOTREG ;;
	proc) echo $((TT_PSEUDO | ($1 & 1 ? TT_NOEXEC : 0))) ;;
	noexec) echo $(($1 & 1 ? TT_NOEXEC : 0)) ;;
	*) echo 0 ;;
	esac
}

# Expected figures of one row (interpreter), added up file by file:
#   row_reset; row_add BACKEND POLICY KIND COUNT...
# E_ALLOWED E_DENIED E_WOULD E_EVENTS (denials + would-deny events),
# E_D1 E_D2 E_D4 .. E_D64 (denials per reason bit), E_W1.. (would-deny),
# E_LAST (kind of the last denied file, empty when none).
row_reset() {
	E_ALLOWED=0 E_DENIED=0 E_WOULD=0 E_EVENTS=0 E_LAST=
	for b in $TT_BITS; do eval "E_D$b=0 E_W$b=0"; done
}
row_add() {
	tt_model "$1" "$2" "$3"
	n=$4
	if [ "$M_DENY" -eq 0 ]; then
		E_ALLOWED=$((E_ALLOWED + n))
	else
		E_DENIED=$((E_DENIED + n)) E_LAST=$3
	fi
	[ "$M_WOULD" -ne 0 ] && E_WOULD=$((E_WOULD + n))
	[ "$M_DENY" -ne 0 ] || [ "$M_WOULD" -ne 0 ] && E_EVENTS=$((E_EVENTS + n))
	for b in $TT_BITS; do
		[ $((M_DENY & b)) -ne 0 ] && eval "E_D$b=\$((E_D$b + n))"
		[ $((M_WOULD & b)) -ne 0 ] && eval "E_W$b=\$((E_W$b + n))"
	done
	return 0
}
# row_top: the most frequent deny reason (ties: the first in slot order
# noexec_mount, file_perm, not_regular, pseudo_fs, write_busy, lsm,
# check_error), "-"
# when none denied.
row_top() {
	best=- max=0
	for b in $TT_BITS; do
		eval "v=\$E_D$b"
		if [ "$v" -gt "$max" ]; then max=$v best=$(tt_reason_name "$b"); fi
	done
	echo "$best"
}
tt_reason_name() {
	case $1 in
	1) echo noexec_mount ;; 2) echo file_perm ;;
	4) echo not_regular ;; 8) echo pseudo_fs ;;
	16) echo write_busy ;; 32) echo lsm ;;
	64) echo check_error ;;
	esac
}
# row_pct: deny% with one decimal, as trusttop prints it.
row_pct() {
	awk -v a="$E_ALLOWED" -v d="$E_DENIED" \
		'BEGIN { printf "%.1f\n", a + d ? 100 * d / (a + d) : 0 }'
}
# row_verdicts: "allowed A denied D errors 0 checks C" as probe -n prints it.
row_verdicts() { echo "allowed $E_ALLOWED denied $E_DENIED errors 0 checks $((E_ALLOWED + E_DENIED))"; }

# tt_backend_label BACKEND: how trusttop names the backend it loaded in
# auto mode: on the patched kernel with AT_EXECVE_CHECK (patches 6-9, whose
# execve_check_verdict tracepoint comes with it), both interfaces at once.
tt_backend_label() {
	case $1 in
	trusted_for)
		case " $("$WORKLOAD" --kernel) " in
		*" execve_check "*) echo "trusted_for+execve_check (tp_btf)" ;;
		*) echo "trusted_for (tp_btf)" ;;
		esac ;;
	*) echo "$1" ;;
	esac
}
# tt_backend_label_ui BACKEND: the same in the terminal's header.
tt_backend_label_ui() {
	tt_backend_label "$1" | sed 's/^trusted_for+execve_check /tf+check /'
}
# tt_api_short BACKEND: the terminal view's API column ("tf", "check") for
# the probe's checks, which go through the backend tt_detect found.
tt_api_short() {
	case $1 in
	trusted_for) echo tf ;;
	*) echo check ;;
	esac
}
# tt_reasons BITS: "noexec_mount,file_perm,..." in bit order, "-" for 0.
tt_reasons() {
	s=
	for b in $TT_BITS; do
		[ $(($1 & b)) -ne 0 ] && s=${s:+$s,}$(tt_reason_name "$b")
	done
	echo "${s:--}"
}
