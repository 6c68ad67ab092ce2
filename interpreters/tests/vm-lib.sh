# Shared by tests/vm/cases/interp-*.sh (sourced after lib.sh): the checks
# that compare an interpreter's verdict with the kernel's under a policy.
# Set WHO ("interpreter", "shell") before sourcing.
POLICY=/proc/sys/fs/trust_policy

t_eq "kernel answers with trusted_for(2)" trusted_for "$("$TFRUN" --backend)"
[ -w "$POLICY" ] || { t_fail "$POLICY is writable"; t_done "$SUITE"; exit 1; }
old_policy=$(cat "$POLICY")

# iv FILE EXPECTED_OUT: the interpreter's verdict from the last run
# ($rc, $out, $err): ran with the expected output, or refused with 126 and
# one line naming the file.
iv() {
	if [ "$rc" = 0 ] && [ "$out" = "$2" ]; then
		echo allow
	elif [ "$rc" = 126 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	     case $err in *"$1: refused to interpret"*) true ;; *) false ;; esac; then
		echo deny
	else
		echo "unexpected(rc=$rc out=$out err=$err)"
	fi
}
# same WHAT FILE EXPECTED_OUT: the interpreter's verdict == kernel's on FILE
same() {
	k=$("$VERDICT" "$2")
	t_eq "policy $P: $1: $WHO agrees with kernel ($k)" "$k" "$(iv "$2" "$3")"
}
# kexp WHAT FILE NOEXEC_MOUNT NO_X: the kernel follows the policy bits
kexp() {
	want=allow
	[ "$3" = 1 ] && [ $((P & 1)) = 1 ] && want=deny
	[ "$4" = 1 ] && [ $((P & 2)) = 2 ] && want=deny
	t_eq "policy $P: $1: kernel verdict per policy bits" "$want" "$("$VERDICT" "$2")"
}
