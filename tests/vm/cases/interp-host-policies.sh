#!/bin/sh
# The interpreters' host suites (interpreters/tests/host-python.sh and
# host-dash.sh: the main script, imports, the byte-code cache, site, .pth,
# zipimport, PYTHONSTARTUP, -i, dash's '.' and PATH lookup) on the trustfor
# kernel, which has both trusted_for(2) and AT_EXECVE_CHECK, under each
# fs.trust_policy:
#  - 1, 2 and 3 with SECBIT_EXEC_RESTRICT_FILE (0x100): AT_EXECVE_CHECK's
#    refusals are enforced whatever the policy (host-suites-6.1 runs them
#    under policy 0, where trusted_for refuses nothing, so an interpreter
#    that asked only trusted_for about imports fails there);
#  - 3 without the bit (TF_INTERP_NO_SECBITS): trusted_for alone gives the
#    same refusals for files, so an interpreter that asked only
#    AT_EXECVE_CHECK fails here.
# Without the bit under policies 0-2, trusted_for's partial refusals are
# the model of the interp-python and interp-dash cases.
# The suites' names get a "-pP" or "-pP-nosecbits" suffix.
# Needs the host build: make -C interpreters all test-helpers,
# make -C tests/probe.
# vm-timeout: 3600
# vm-after: host
. tests/lib/case.sh
fx_policy_save
fx_tmpdir /tmp/tf-ihp.XXXXXX
out=$FX_DIR/out
rc=0
# run_suites POLICY SUFFIX [VAR=VALUE...]: both suites under POLICY
run_suites() {
	policy=$1 suffix=$2
	shift 2
	for s in python dash; do
		if ! echo "$policy" > /proc/sys/fs/trust_policy; then
			echo "interp-host-policies: cannot set fs.trust_policy=$policy" >&2
			echo "RESULT interp-$s-host$suffix 0 1 0"
			rc=1
			continue
		fi
		# Each run in a mount namespace of its own: the suite binds an
		# executable copy over the standard library, which the next run
		# must not find.
		# A run that dies before its RESULT line, or exits non-zero
		# without reporting a failure, is one failure of its own.
		unshare -m --propagation private env "$@" \
			sh "interpreters/tests/host-$s.sh" > "$out" 2>&1
		st=$?
		sed -e "s/^\(RESULT\|SKIPPED\) interp-$s-host\([ :]\)/\1 interp-$s-host$suffix\2/" "$out"
		if ! grep -q "^RESULT interp-$s-host " "$out"; then
			echo "RESULT interp-$s-host$suffix-ended 0 1"
			rc=1
		elif [ "$st" != 0 ] && grep -q "^RESULT interp-$s-host [0-9]* 0" "$out"; then
			echo "RESULT interp-$s-host$suffix-exit 0 1"
			rc=1
		fi
	done
}
for p in 1 2 3; do
	run_suites "$p" "-p$p"
done
run_suites 3 -p3-nosecbits TF_INTERP_NO_SECBITS=1
exit $rc
