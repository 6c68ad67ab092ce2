# shellcheck shell=sh
# Running a command under test (POSIX sh; source it).
# run_files DIR: run's output files are DIR/out and DIR/err (call once,
#   with the test's own temporary directory, before run).
# run CMD...: runs CMD with stdout in $RUN_OUT and stderr in $RUN_ERR (the
#   files stay for grep) and sets rc (exit status), out and err (their
#   text, trailing newlines removed).  CMD runs in the current shell.
# run_capture CMD...: the same, for a suite's own run() that does more.
run_files() {
	RUN_OUT=$1/out
	RUN_ERR=$1/err
}
# shellcheck disable=SC2034 # rc, out and err are for the caller
run_capture() {
	"$@" > "${RUN_OUT:?run: call run_files DIR first}" 2> "$RUN_ERR"
	rc=$?
	out=$(cat "$RUN_OUT")
	err=$(cat "$RUN_ERR")
}
run() { run_capture "$@"; }
