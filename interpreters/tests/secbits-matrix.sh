# shellcheck shell=sh
# The exec securebits against a model written from check_exec.rst
# (Documentation/userspace-api/check_exec.rst, summarised in the issue-11
# ABI note), not from tf_interp.c.  Sourced by host-python.sh and
# host-dash.sh after lib.sh; secbits_matrix runs every combination of
# SECBIT_EXEC_RESTRICT_FILE (0x100) and SECBIT_EXEC_DENY_INTERACTIVE (0x400)
# with six kinds of code: a script with an x bit, one without, one on a
# noexec mount, an executable and a non-executable file redirected onto
# stdin, a pipe on stdin, and -c.
#
# The caller sets:
#   M_INTERP  the interpreter's command words (e.g. "$DASH", "$PY -S")
#   M_EXT     a script's file name extension
#   M_CODE    a script printing "matrix ran"
#   M_CMD     the same as a -c argument
#   BASEENV   the clean environment, with no securebit of its own
#             (restrict_file_env sets it)
#
# The model (rules quoted from check_exec.rst / the ABI note):
#  - AT_EXECVE_CHECK refuses what execve() would: a file on a noexec mount,
#    a file without an x bit (root too: CAP_DAC_OVERRIDE needs one), and
#    anything that is not a regular file, a pipe among them;
#  - an interpreter always asks it about the file it interprets, but
#    enforces the answer only when SECBIT_EXEC_RESTRICT_FILE is set;
#  - code read on stdin is interactive input, a regular file too, which
#    SECBIT_EXEC_RESTRICT_FILE does not govern (the bits' table, and
#    mainline's samples/check-exec/inc.c);
#  - with SECBIT_EXEC_DENY_INTERACTIVE set it refuses interactive commands
#    (-c), and code arriving on a descriptor (stdin) unless AT_EXECVE_CHECK
#    on that descriptor succeeds;
#  - on a kernel that also has trusted_for(2) (the issue-11 6.1 kernel), the
#    interpreter also enforces fs.trust_policy as before: bit 0 refuses
#    noexec mounts, bit 1 files without an x bit, any bit what is not a
#    regular file (-c is judged as a pipe).

# restrict_file_env: for the host suites' AT_EXECVE_CHECK checks (needs
# execve_check in lib.sh).  check_exec.rst: AT_EXECVE_CHECK is enforced
# only under SECBIT_EXEC_RESTRICT_FILE.  Where the kernel has it, every
# interpreter runs with that bit set (CLEANENV becomes tf-run --secbits
# 0x100 CLEANENV) and the probe asks AT_EXECVE_CHECK itself (XC_API).
# TF_INTERP_NO_SECBITS=1 runs them without it: then only a kernel with
# trusted_for(2) under fs.trust_policy 3 (both bits: the same refusals for
# files) gives those verdicts, through trusted_for.  On the trustfor
# kernel, which has both, tests/vm/cases/interp-host-policies.sh runs the
# suites under each policy, with and without the bit.  secbits_matrix
# checks each combination of the two bits from BASEENV, which sets none.
restrict_file_env() {
	BASEENV=$CLEANENV
	XC_API=
	if offers execve_check && [ -z "${TF_INTERP_NO_SECBITS:-}" ]; then
		CLEANENV="$TFRUN --secbits 0x100 -- $CLEANENV"
		XC_API=execve_check
	elif offers trusted_for &&
		[ "$(cat /proc/sys/fs/trust_policy 2> /dev/null)" = 3 ]; then
		XC_API=trusted_for
	fi
	# NONFILE: the verdict on code that is not a file (a pipe, -c, a
	# terminal) with SECBIT_EXEC_DENY_INTERACTIVE clear: allowed, unless
	# the kernel has trusted_for(2) and fs.trust_policy is not 0, which
	# refuses what is not a regular file under either bit (trusted_for.2).
	NONFILE=allow
	! offers trusted_for ||
		[ "$(cat /proc/sys/fs/trust_policy 2> /dev/null)" = 0 ] || NONFILE=deny
	# shellcheck disable=SC2034 # the host suites' needs lines use it
	XC_ONLY="needs AT_EXECVE_CHECK verdicts: AT_EXECVE_CHECK under SECBIT_EXEC_RESTRICT_FILE (Linux >= 6.14, the trustfor kernel), or trusted_for(2) under fs.trust_policy 3${TF_INTERP_NO_SECBITS:+ (TF_INTERP_NO_SECBITS is set)}"
}

# expect_nonfile WHAT NAME OUTPUT: the last run, of code that is not a
# file named NAME (<stdin>, -c) with SECBIT_EXEC_DENY_INTERACTIVE clear,
# ran with OUTPUT, or was refused by trusted_for when NONFILE says so
expect_nonfile() {
	if [ "$NONFILE" = allow ]; then
		expect_ran "$1" "$3"
	else
		expect_denied "$1, refused by fs.trust_policy" "$2" \
			"untrusted under the current fs.trust_policy (trusted_for)"
	fi
}
# nonfile_case ALLOWED REFUSED: ALLOWED when NONFILE allows, else REFUSED
nonfile_case() { if [ "$NONFILE" = allow ]; then echo "$1"; else echo "$2"; fi; }

# xc_refuses NOEXEC NO_X NOT_REGULAR: 1 when AT_EXECVE_CHECK refuses
xc_refuses() {
	if [ "$1" = 1 ] || [ "$2" = 1 ] || [ "$3" = 1 ]; then echo 1; else echo 0; fi
}
# tf_refuses NOEXEC NO_X NOT_REGULAR: 1 when trusted_for refuses under $MP
tf_refuses() {
	if [ -z "$MP" ]; then echo 0
	elif [ "$1" = 1 ] && [ $((MP & 1)) = 1 ]; then echo 1
	elif [ "$2" = 1 ] && [ $((MP & 2)) = 2 ]; then echo 1
	elif [ "$3" = 1 ] && [ "$MP" != 0 ]; then echo 1
	else echo 0; fi
}
# m_model SECBITS KIND NOEXEC NO_X: "allow", or "deny" and the name of a
# check that refuses (what the error line must name)
m_model() {
	rf=$(( ($1 & 0x100) != 0 )); di=$(( ($1 & 0x400) != 0 ))
	case $2 in
	file)  nonreg=0 ;;
	stdin) nonreg=0 ;;
	*)     nonreg=1 ;;
	esac
	xc=$(xc_refuses "$3" "$4" "$nonreg")
	tf=$(tf_refuses "$3" "$4" "$nonreg")
	case $2 in
	file)
		if [ "$rf" = 1 ] && [ "$xc" = 1 ]; then echo "deny SECBIT_EXEC_RESTRICT_FILE"; return; fi ;;
	stdin)
		if [ "$di" = 1 ] && [ "$xc" = 1 ]; then echo "deny SECBIT_EXEC_DENY_INTERACTIVE"; return; fi ;;
	pipe|cmd)
		if [ "$di" = 1 ]; then echo "deny SECBIT_EXEC_DENY_INTERACTIVE"; return; fi ;;
	esac
	if [ "$tf" = 1 ]; then echo "deny trusted_for"; return; fi
	echo allow
}

secbits_matrix() {
	if ! "$VERDICT" --kernel | grep -qw execve_check; then
		# 4 combinations x 7 kinds, each with a verdict and a reason check
		for i in $(seq 1 56); do
			T_SKIP=$((T_SKIP + 1))
			printf 'ok - securebits matrix %s # SKIP\n' "$i"
		done
		printf 'SKIPPED %s: %s (56 checks)\n' "$SUITE" \
			"securebits matrix: the kernel has no AT_EXECVE_CHECK nor exec securebits (Linux >= 6.14 or the issue-11 kernel)"
		return
	fi
	# fs.trust_policy, read here (root), where the kernel has trusted_for
	MP=
	[ ! -e /proc/sys/fs/trust_policy ] || MP=$(cat /proc/sys/fs/trust_policy)
	mkdir -p "$X/m" "$NX/m"
	printf '%s\n' "$M_CODE" > "$X/m/ok$M_EXT"; chmod 755 "$X/m/ok$M_EXT"
	printf '%s\n' "$M_CODE" > "$X/m/nox$M_EXT"; chmod 644 "$X/m/nox$M_EXT"
	printf '%s\n' "$M_CODE" > "$NX/m/ok$M_EXT"; chmod 755 "$NX/m/ok$M_EXT"
	for sb in 0 0x100 0x400 0x500; do
		for c in "x file:file:0:0:$X/m/ok$M_EXT" \
			 "non-x file:file:0:1:$X/m/nox$M_EXT" \
			 "noexec mount:file:1:0:$NX/m/ok$M_EXT" \
			 "stdin x file:stdin:0:0:$X/m/ok$M_EXT" \
			 "stdin non-x file:stdin:0:1:$X/m/nox$M_EXT" \
			 "stdin pipe:pipe:0:0:" "-c:cmd:0:0:"; do
			what=${c%%:*}; rest=${c#*:}
			kind=${rest%%:*}; rest=${rest#*:}
			noexec=${rest%%:*}; rest=${rest#*:}
			nox=${rest%%:*}; file=${rest#*:}
			sbr="$TFRUN --secbits $sb --"
			case $kind in
			file)  name=$file
			       run $sbr $BASEENV $M_INTERP "$file" ;;
			stdin) name="<stdin>"
			       run sh -c "$sbr $BASEENV $M_INTERP < '$file'" ;;
			pipe)  name="<stdin>"
			       run sh -c "cat '$X/m/ok$M_EXT' | $sbr $BASEENV $M_INTERP" ;;
			cmd)   name=-c
			       run $sbr $BASEENV $M_INTERP -c "$M_CMD" ;;
			esac
			want=$(m_model "$sb" "$kind" "$noexec" "$nox")
			t_eq "secbits $sb, $what: verdict (policy ${MP:-none})" \
				"${want%% *}" "$(iv "$name" "matrix ran")"
			if [ "$want" = allow ]; then
				t_eq "secbits $sb, $what: nothing on stderr" "" "$err"
			else
				t_has "secbits $sb, $what: the error names ${want#* }" \
					"${want#* }" "$err"
			fi
		done
	done
}
