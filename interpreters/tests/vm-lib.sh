# shellcheck shell=sh
# Shared by tests/vm/cases/interp-*.sh (sourced after lib.sh): the trustfor
# kernel and its fs.trust_policy, which the cases set to 0..3 in turn ($P).
# The verdict helpers (iv, same, model, kexp) are in lib.sh.
# Set WHO ("interpreter", "shell") before sourcing.
POLICY=/proc/sys/fs/trust_policy

t_eq "kernel answers with trusted_for(2)" trusted_for "$("$VERDICT" --backend)"
t_eq "the probe's own look finds trusted_for(2) and AT_EXECVE_CHECK" \
	"trusted_for execve_check" "$KERNEL_OFFERS"
[ -w "$POLICY" ] || { t_fail "$POLICY is writable"; t_done "$SUITE"; exit 1; }
fx_policy_save # put back at exit (tests/lib/fixture.sh, sourced by lib.sh)

# knonfile: the kernel's verdict on code that is not a file, asked about a
# pipe (what -c is judged as, and what a piped stdin is), and its model
knonfile() {
	k=$(echo | kv -)
	t_eq "policy $P: kernel on a pipe, per policy bits" "$(model 0 0 1)" "$k"
}
