#!/bin/sh
# trusted-python3 and trusted-dash under fs.trust_policy 0..3 combined with
# the exec securebits {none, SECBIT_EXEC_RESTRICT_FILE (0x100),
# SECBIT_EXEC_DENY_INTERACTIVE (0x400), both (0x500)} on the trustfor kernel,
# which has both trusted_for(2) and execveat(AT_EXECVE_CHECK): the one place
# where the two interfaces meet (the host's mainline kernel has no
# trusted_for; interp-python and interp-dash set no securebit).
#
# Code: a script with an x bit on an exec mount, one without (0644), one
# 0755 on a noexec mount, and one in a memfd (mode 0755, /proc/self/fd/7),
# each given as the script and on stdin; a pipe on stdin; -c.  The memfd is
# the file the two interfaces disagree on the other way round: execve()
# would run it, trusted_for refuses it under any policy (a pseudo
# filesystem), so it is the one that tells whether fs.trust_policy is still
# enforced under SECBIT_EXEC_RESTRICT_FILE.
#
# Each interpreter's verdict (ran, or refused with 126 and one line naming
# the file, '<stdin>' or '-c') must equal
#  - the model below, written from the rules of trusted_for.2,
#    trusted-python3.1 / trusted-dash.1 and check_exec.rst, and
#  - the same rules applied to the kernel's raw answers for the same
#    descriptor (probe -a trusted_for / execve_check: the system
#    calls themselves, not libtrustedfor), asked with the same securebits;
# a refusal must name one of the checks that refuse (the model's list);
# and the raw answers must follow the model of each interface.
#
# The model:
#  - trusted_for(2) refuses under fs.trust_policy P: with bit 0 a file on a
#    noexec mount, with bit 1 a file without an x bit (root too), with any
#    bit what is not a regular file (pipes; -c is judged as a pipe) and
#    any file of a pseudo filesystem (memfd);
#  - AT_EXECVE_CHECK refuses what execve(2) would, whatever P: a noexec
#    mount, no x bit, not a regular file (a memfd with an x bit passes);
#  - a script is refused when trusted_for refuses, or when
#    SECBIT_EXEC_RESTRICT_FILE is set and AT_EXECVE_CHECK refuses;
#  - a regular file on stdin is interactive input, which
#    SECBIT_EXEC_RESTRICT_FILE does not govern (check_exec.rst): refused
#    when trusted_for refuses it (as the file);
#  - with SECBIT_EXEC_DENY_INTERACTIVE set, -c is refused, and stdin only
#    accepted when AT_EXECVE_CHECK on fd 0 allows it (a pipe never);
#  - code that is not a file is also refused when trusted_for refuses it.
# Needs a host build first: make -C interpreters all test-helpers
SUITE=interp-secbits
TF_TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TF_TOP/interpreters/tests/lib.sh"

WHO=interpreter
. "$TF_TOP/interpreters/tests/vm-lib.sh"

t_eq "kernel has AT_EXECVE_CHECK" yes "$("$VERDICT" --kernel | grep -qw execve_check && echo yes)"

# trusted-python3 reads its standard library (mode 644 on Debian) through
# the same checks: an executable copy, on the exec mount, bound over it
# (what policyctl's fix gives), so that only the script is at stake.
STDLIB=/usr/lib/python3.11
mkdir "$X/stdlib"
(cd "$STDLIB" && tar cf - --exclude=./test --exclude=./idlelib \
	--exclude=./tkinter --exclude=./lib2to3 .) | tar xf - -C "$X/stdlib"
chmod -R a+x "$X/stdlib"
mount --bind "$X/stdlib" "$STDLIB"

# The scripts: "ok" 0755 on the exec mount, "nox" 0644 there, "ok" 0755 on
# the noexec mount (the memfd is a copy of the first, made per run by
# with_memfd); each prints "matrix ran".
mkdir "$X/m" "$NX/m"
for ext in sh py; do
	case $ext in
	sh) code='echo matrix ran' ;;
	py) code='print("matrix ran")' ;;
	esac
	printf '%s\n' "$code" > "$X/m/ok.$ext"; chmod 755 "$X/m/ok.$ext"
	printf '%s\n' "$code" > "$X/m/nox.$ext"; chmod 644 "$X/m/nox.$ext"
	printf '%s\n' "$code" > "$NX/m/ok.$ext"; chmod 755 "$NX/m/ok.$ext"
done

# Names the one-line error gives each check (the man pages' DENIAL).
C_TF='(trusted_for)'
C_RF='(AT_EXECVE_CHECK, SECBIT_EXEC_RESTRICT_FILE is set)'
C_DX='(AT_EXECVE_CHECK, SECBIT_EXEC_DENY_INTERACTIVE is set)'
C_DC='and SECBIT_EXEC_DENY_INTERACTIVE is set'

# m_tf NOEXEC NO_X NOT_REGULAR PSEUDO_FS: trusted_for(2)'s verdict under
# $P (a pseudo filesystem's file is refused as a non-regular one is)
m_tf() { model "$1" "$2" $(( $3 | ${4:-0} )); }
# m_xc NOEXEC NO_X NOT_REGULAR PSEUDO_FS: AT_EXECVE_CHECK's verdict (no
# policy; execve(2) runs a memfd that has an x bit)
m_xc() {
	if [ "$1" = 1 ] || [ "$2" = 1 ] || [ "$3" = 1 ]; then echo deny
	else echo allow; fi
}
# with_memfd FILE FD CMD...: run CMD with a copy of FILE in a memfd of
# mode 0755 on descriptor FD (0: stdin, at offset 0)
with_memfd() {
	/usr/bin/python3 -c 'import os, sys
m = os.memfd_create("tf-script", 0)
with open(sys.argv[1], "rb") as f:
    os.write(m, f.read())
os.fchmod(m, 0o755)
os.lseek(m, 0, os.SEEK_SET)
fd = int(sys.argv[2])
if m != fd:
    os.dup2(m, fd)
    os.close(m)
os.execvp(sys.argv[3], sys.argv[3:])' "$@"
}
MEMFD=/proc/self/fd/7
# combine KIND TF XC: the interpreter's verdict under $SB from the two
# interfaces' verdicts (KIND: file, stdin (a regular file), pipe, cmd):
# "allow", or "deny" and the checks that refuse, separated by '|'
combine() {
	rf=$(( (SB & 0x100) != 0 )) di=$(( (SB & 0x400) != 0 )) why=
	[ "$2" = allow ] || why="$why|$C_TF"
	case $1 in
	file)
		[ "$rf" = 0 ] || [ "$3" = allow ] || why="$why|$C_RF" ;;
	stdin)
		[ "$di" = 0 ] || [ "$3" = allow ] || why="$why|$C_DX" ;;
	pipe)
		[ "$di" = 0 ] || [ "$3" = allow ] || why="$why|$C_DX" ;;
	cmd)
		[ "$di" = 0 ] || why="$why|$C_DC" ;;
	esac
	if [ -z "$why" ]; then echo allow; else echo "deny ${why#|}"; fi
}
# reason_ok WHY: the last run's error names one of the checks in WHY
reason_ok() {
	rest=$1
	while [ -n "$rest" ]; do
		chk=${rest%%|*}
		case $err in *"$chk"*) return 0 ;; esac
		[ "$rest" != "$chk" ] || break
		rest=${rest#*|}
	done
	return 1
}

# raw API VIA FILE: the kernel's raw answer (probe -a API), asked with
# the securebits $SB about the descriptor VIA gives FILE's content on:
# name (FILE opened), stdin (redirected), memfd (a copy in a memfd, opened
# as $MEMFD), stdin-memfd (that memfd as stdin), pipe (piped onto stdin)
raw() {
	sbr="$TFRUN --secbits $SB --"
	case $2 in
	name) $sbr "$VERDICT" -a "$1" "$3" ;;
	stdin) $sbr "$VERDICT" -a "$1" - < "$3" ;;
	memfd) with_memfd "$3" 7 $sbr "$VERDICT" -a "$1" "$MEMFD" ;;
	stdin-memfd) with_memfd "$3" 0 $sbr "$VERDICT" -a "$1" - ;;
	pipe) cat "$3" | $sbr "$VERDICT" -a "$1" - ;;
	esac | cut -f1
}

for P in 0 1 2 3; do
	echo "$P" > "$POLICY"
	t_eq "policy $P is set" "$P" "$(cat "$POLICY")"
	for SB in 0 0x100 0x400 0x500; do
		W="policy $P, secbits $SB"
		# The kernel's raw answers, each against its interface's model.
		for f in "name:$X/m/ok.sh:0:0:0" "name:$X/m/nox.sh:0:1:0" \
			 "name:$NX/m/ok.sh:1:0:0" "memfd:$X/m/ok.sh:0:0:1"; do
			via=${f%%:*}; rest=${f#*:}
			file=${rest%%:*}; rest=${rest#*:}
			ne=${rest%%:*}; rest=${rest#*:}
			nx=${rest%:*}; ps=${rest#*:}
			case $via in
			name) sv=stdin ;;
			memfd) sv=stdin-memfd ;;
			esac
			for v in "$via" "$sv"; do
				t_eq "$W: trusted_for on $file ($v)" \
					"$(m_tf "$ne" "$nx" 0 "$ps")" \
					"$(raw trusted_for "$v" "$file")"
				t_eq "$W: AT_EXECVE_CHECK on $file ($v)" \
					"$(m_xc "$ne" "$nx" 0 "$ps")" \
					"$(raw execve_check "$v" "$file")"
			done
		done
		k_tf_pipe=$(raw trusted_for pipe "$X/m/ok.sh")
		k_xc_pipe=$(raw execve_check pipe "$X/m/ok.sh")
		t_eq "$W: trusted_for on a pipe" "$(m_tf 0 0 1)" "$k_tf_pipe"
		t_eq "$W: AT_EXECVE_CHECK on a pipe" "$(m_xc 0 0 1)" "$k_xc_pipe"

		for I in dash python; do
			case $I in
			dash) ext='sh'; INTERP="$DASH"; CMD='echo matrix ran' ;;
			python) ext=py; INTERP="$PY -S"; CMD='print("matrix ran")' ;;
			esac
			sbr="$TFRUN --secbits $SB --"
			# WHAT:VIA:FILE:NOEXEC:NO_X:PSEUDO_FS
			for c in "x file:name:$X/m/ok.$ext:0:0:0" \
				 "0644 file:name:$X/m/nox.$ext:0:1:0" \
				 "noexec mount:name:$NX/m/ok.$ext:1:0:0" \
				 "memfd 0755:memfd:$X/m/ok.$ext:0:0:1" \
				 "stdin x file:stdin:$X/m/ok.$ext:0:0:0" \
				 "stdin 0644 file:stdin:$X/m/nox.$ext:0:1:0" \
				 "stdin noexec-mount file:stdin:$NX/m/ok.$ext:1:0:0" \
				 "stdin memfd 0755:stdin-memfd:$X/m/ok.$ext:0:0:1" \
				 "stdin pipe:pipe:$X/m/ok.$ext:0:0:0" \
				 "-c:cmd:-:0:0:0"; do
				what=${c%%:*}; rest=${c#*:}
				via=${rest%%:*}; rest=${rest#*:}
				file=${rest%%:*}; rest=${rest#*:}
				ne=${rest%%:*}; rest=${rest#*:}
				nx=${rest%:*}; ps=${rest#*:}
				nonreg=0
				case $via in
				name)  kind=file name=$file
				       run $sbr $CLEANENV $INTERP "$file" ;;
				memfd) kind=file name=$MEMFD
				       run with_memfd "$file" 7 $sbr $CLEANENV $INTERP "$MEMFD" ;;
				stdin) kind=stdin name='<stdin>'
				       run sh -c "$sbr $CLEANENV $INTERP < '$file'" ;;
				stdin-memfd) kind=stdin name='<stdin>'
				       run with_memfd "$file" 0 $sbr $CLEANENV $INTERP ;;
				pipe)  kind=pipe name='<stdin>' nonreg=1
				       run sh -c "cat '$file' | $sbr $CLEANENV $INTERP" ;;
				cmd)   kind=cmd name=-c nonreg=1
				       run $sbr $CLEANENV $INTERP -c "$CMD" ;;
				esac
				got=$(iv "$name" "matrix ran")
				want=$(combine "$kind" "$(m_tf "$ne" "$nx" "$nonreg" "$ps")" \
					"$(m_xc "$ne" "$nx" "$nonreg" "$ps")")
				# -c has no descriptor: judged as a pipe
				if [ "$kind" != cmd ]; then
					kwant=$(combine "$kind" "$(raw trusted_for "$via" "$file")" \
						"$(raw execve_check "$via" "$file")")
				else
					kwant=$(combine "$kind" "$k_tf_pipe" "$k_xc_pipe")
				fi
				t_eq "$W: $I, $what: verdict per model" "${want%% *}" "$got"
				t_eq "$W: $I, $what: verdict per kernel's answers" \
					"${kwant%% *}" "$got"
				if [ "${want%% *}" = allow ]; then
					t_eq "$W: $I, $what: nothing on stderr" "" "$err"
				elif [ "$got" = deny ] && reason_ok "${want#deny }"; then
					t_ok "$W: $I, $what: the error names a refusing check"
				else
					t_fail "$W: $I, $what: the error names one of '${want#deny }': got '$err'"
				fi
			done
		done
	done
done
umount "$STDLIB"

t_done "$SUITE"
