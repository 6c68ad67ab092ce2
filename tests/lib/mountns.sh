# shellcheck shell=sh
# A private mount namespace for a test script (POSIX sh; source it).
# mountns_reexec SHELL SCRIPT ARGS...: unless this process already is the
#   re-run, run SCRIPT again with SHELL in a private mount namespace
#   (unshare -m, propagation private), replacing this process: its mounts
#   go away with it, whatever way it ends.  Returns only in the re-run.
#   Call it first thing, as: mountns_reexec sh "$0" "$@" (root only).
# unshare without --fork keeps the pid: the re-run knows itself by it, and
# a script the test starts (another pid) makes its own namespace again.
mountns_reexec() {
	[ "${TF_MOUNTNS_PID:-}" = "$$" ] && return 0
	TF_MOUNTNS_PID=$$ exec unshare -m --propagation private "$@"
}
