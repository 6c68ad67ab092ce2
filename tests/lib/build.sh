# shellcheck shell=sh
# Is the build there (POSIX sh; source it after tests/lib/assert.sh).
# need_build SUITE HOW FILE...: each FILE must be an executable file; for
#   the first that is not, one failed check "no FILE: run 'HOW' first",
#   SUITE's RESULT line (t_done) and exit 1.  A missing build is a failure
#   of the suite, never a skip nor an exit without a RESULT line.
need_build() {
	_nb_suite=$1 _nb_how=$2
	shift 2
	for _nb_f in "$@"; do
		[ -f "$_nb_f" ] && [ -x "$_nb_f" ] && continue
		t_fail "no $_nb_f: run '$_nb_how' first"
		t_done "$_nb_suite"
		exit 1
	done
}
