# shellcheck shell=sh
# The helpers every VM case (and root test) uses, in one (POSIX sh): source
# it from the repository root, or set TF_LIB to this directory first.
# assert.sh (t_ok, t_eq, t_done...), build.sh (need_build), wait.sh
# (wait_for) and fixture.sh (fx_at_exit, fx_tmpfs, fx_policy_save).
# shellcheck source=tests/lib/assert.sh
. "${TF_LIB:-tests/lib}/assert.sh"
# shellcheck source=tests/lib/build.sh
. "${TF_LIB:-tests/lib}/build.sh"
# shellcheck source=tests/lib/wait.sh
. "${TF_LIB:-tests/lib}/wait.sh"
# shellcheck source=tests/lib/fixture.sh
. "${TF_LIB:-tests/lib}/fixture.sh"
