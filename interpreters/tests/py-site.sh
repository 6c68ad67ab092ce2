# shellcheck shell=sh
# trusted-python3 without -S: the site module (.pth files, sitecustomize,
# usercustomize), zip archives (zipimport), PYTHONSTARTUP and -i.
# Sourced by host-python.sh and tests/vm/cases/interp-python.sh after
# lib.sh, once an executable copy of the standard library is bound over
# $STDLIB.  py_site_setup once, then py_site_checks for each policy $P:
# every verdict is compared with the kernel's on the same file (same) and
# the kernel's with the policy bits (kexp).  $NONFILE: the verdict for code
# that is not a file (pipes), which the caller has checked.
#
# The documented rule (man/trusted-python3.1): every file the site module
# and the import system read goes through io.open_code() and is checked like
# a module, a .pth file too, whether or not it holds an 'import' line; a
# refusal stops the interpreter with 126 naming the file.  PYTHONSTARTUP is
# read, and checked like a script, only when the commands come from stdin
# interactively (a terminal, or -i without a script), as in CPython.

# The interpreter with the site module (no -S), in the clean environment;
# pysenv VAR=VALUE ARGS... with one more environment variable.
# No byte-code cache is written: a cache is checked on its own (and a
# trusted cache of an untrusted source would be used), which the main suite
# covers; here the verdict must be about the file named.
pys() { $CLEANENV PYTHONDONTWRITEBYTECODE=1 "$PY" "$@"; }
pysenv() { v=$1; shift; $CLEANENV PYTHONDONTWRITEBYTECODE=1 "$v" "$PY" "$@"; }

SITE_LIB=lib/python3.11/site-packages

# user_site BASE MODE FILE CONTENT: FILE in the user site directory of
# PYTHONUSERBASE=BASE
user_site() {
	mkdir -p "$1/$SITE_LIB"
	printf '%s\n' "$4" > "$1/$SITE_LIB/$3"
	chmod "$2" "$1/$SITE_LIB/$3"
}

# mkzip ZIP MODE NAME CONTENT: a zip archive holding NAME
mkzip() {
	rm -rf "$T/zsrc"; mkdir "$T/zsrc"
	printf '%s\n' "$4" > "$T/zsrc/$3"
	(cd "$T/zsrc" && $CLEANENV /usr/bin/python3 -m zipfile -c "$1" "$3")
	chmod "$2" "$1"
}

py_site_setup() {
	# The system's site directories hold files this test does not control
	# (and must not run): hidden behind empty directories.
	mkdir "$T/empty"
	for dir in /usr/local/lib/python3.11/dist-packages \
		   /usr/lib/python3/dist-packages \
		   /usr/lib/python3.11/dist-packages; do
		[ ! -d "$dir" ] || mount --bind "$T/empty" "$dir"
	done
	# sitecustomize.py, which site imports from the standard library
	# (Debian's is a link to /etc/python3.11): test versions bound over it,
	# without the cache of Debian's (which would be read instead).
	rm -f "$X/stdlib/__pycache__/sitecustomize."*
	for c in "$X/sc:755" "$NX/sc:755" "$X/scnox:644"; do
		mkdir "${c%:*}"
		printf 'print("sitecustomize ran")\n' > "${c%:*}/sitecustomize.py"
		chmod "${c#*:}" "${c%:*}/sitecustomize.py"
	done

	# .pth files in user site directories (PYTHONUSERBASE)
	pth='import sys; print("pth ran")'
	user_site "$X/ub" 755 t.pth "$pth"
	user_site "$NX/ub" 755 t.pth "$pth"
	user_site "$X/ubnox" 644 t.pth "$pth"
	# a .pth that only adds a directory: no code, still checked
	user_site "$NX/ubpath" 755 p.pth "$X"
	# usercustomize in a user site directory
	user_site "$X/uc" 755 usercustomize.py 'print("usercustomize ran")'
	user_site "$NX/uc" 755 usercustomize.py 'print("usercustomize ran")'
	user_site "$X/ucnox" 644 usercustomize.py 'print("usercustomize ran")'

	# zip archives on sys.path, and as the main script
	for z in "$X/z.zip:755:zx" "$NX/z.zip:755:znx" "$X/znox.zip:644:znox"; do
		zf=${z%%:*}; rest=${z#*:}
		mkzip "$zf" "${rest%:*}" zmod.py 'VALUE = "from zip"'
		# a trusted script putting the archive on sys.path
		printf 'import sys\nsys.path.insert(0, "%s")\nimport zmod\nprint(zmod.VALUE)\n' \
			"$zf" > "$X/imp_${rest#*:}.py"
		chmod 755 "$X/imp_${rest#*:}.py"
	done
	mkzip "$X/app.zip" 755 __main__.py 'print("zip main")'
	mkzip "$NX/app.zip" 755 __main__.py 'print("zip main")'
	mkzip "$X/appnox.zip" 644 __main__.py 'print("zip main")'

	# PYTHONSTARTUP files, and a trusted file to feed -i on stdin
	printf 'print("startup ran")\n' > "$X/st.py"; chmod 755 "$X/st.py"
	cp -p "$X/st.py" "$NX/st.py"
	cp "$X/st.py" "$X/stnox.py"; chmod 644 "$X/stnox.py"
	printf 'print("stdin code")\n' > "$X/in.py"; chmod 755 "$X/in.py"
	[ -f "$X/ok.py" ] || { printf 'print("main ran")\n' > "$X/ok.py"; chmod 755 "$X/ok.py"; }
}

# sitecustomize DIR: DIR/sitecustomize.py is the standard library's
sitecustomize() { mount --bind "$1/sitecustomize.py" "$STDLIB/sitecustomize.py"; }

py_site_checks() {
	# sitecustomize, imported by site at start-up
	for c in "$X/scnox:0:1" "$NX/sc:1:0" "$X/sc:0:0"; do
		dir=${c%%:*}; rest=${c#*:}
		sitecustomize "$dir"
		kexp "site: sitecustomize.py from $dir" \
			"$STDLIB/sitecustomize.py" "${rest%:*}" "${rest#*:}"
		run pys "$X/ok.py"
		same "site: sitecustomize.py from $dir" \
			"$STDLIB/sitecustomize.py" "sitecustomize ran
main ran"
		[ "$dir" = "$X/sc" ] || umount "$STDLIB/sitecustomize.py"
	done
	# from here on, the trusted one ($X/sc) is in place
	sc="sitecustomize ran
"

	# .pth files of the user site directory
	for c in "$X/ub:0:0" "$NX/ub:1:0" "$X/ubnox:0:1"; do
		base=${c%%:*}; rest=${c#*:}
		kexp "site: $base/.../t.pth" "$base/$SITE_LIB/t.pth" "${rest%:*}" "${rest#*:}"
		run pysenv PYTHONUSERBASE="$base" "$X/ok.py"
		same "site: .pth in $base" "$base/$SITE_LIB/t.pth" "pth ran
${sc}main ran"
	done
	kexp "site: .pth without code on a noexec mount" "$NX/ubpath/$SITE_LIB/p.pth" 1 0
	run pysenv PYTHONUSERBASE="$NX/ubpath" "$X/ok.py"
	same "site: .pth without code on a noexec mount" \
		"$NX/ubpath/$SITE_LIB/p.pth" "${sc}main ran"
	# -s: no user site directory, so its .pth is not read at all
	run pysenv PYTHONUSERBASE="$NX/ub" -s "$X/ok.py"
	t_eq "policy $P: site: -s, untrusted user .pth not read: script runs" \
		"0:${sc}main ran" "$rc:$out"
	for c in "$X/uc:0:0" "$NX/uc:1:0" "$X/ucnox:0:1"; do
		base=${c%%:*}; rest=${c#*:}
		kexp "site: $base/.../usercustomize.py" \
			"$base/$SITE_LIB/usercustomize.py" "${rest%:*}" "${rest#*:}"
		run pysenv PYTHONUSERBASE="$base" "$X/ok.py"
		same "site: usercustomize in $base" \
			"$base/$SITE_LIB/usercustomize.py" "${sc}usercustomize ran
main ran"
	done

	# zipimport: an archive on sys.path, and as the main script
	for c in "$X/z.zip:0:0:zx" "$NX/z.zip:1:0:znx" "$X/znox.zip:0:1:znox"; do
		zf=${c%%:*}; rest=${c#*:}; key=${rest##*:}; rest=${rest%:*}
		kexp "zip $zf" "$zf" "${rest%:*}" "${rest#*:}"
		run pys "$X/imp_$key.py"
		same "zipimport from $zf" "$zf" "${sc}from zip"
	done
	for c in "$X/app.zip:0:0" "$NX/app.zip:1:0" "$X/appnox.zip:0:1"; do
		zf=${c%%:*}; rest=${c#*:}
		kexp "zip $zf" "$zf" "${rest%:*}" "${rest#*:}"
		run pys "$zf"
		same "zip archive $zf as the script" "$zf" "${sc}zip main"
	done

	# PYTHONSTARTUP: -i, commands from a trusted file on stdin
	kexp "stdin file for -i" "$X/in.py" 0 0
	for c in "$X/st.py:0:0" "$NX/st.py:1:0" "$X/stnox.py:0:1"; do
		sf=${c%%:*}; rest=${c#*:}
		kexp "PYTHONSTARTUP $sf" "$sf" "${rest%:*}" "${rest#*:}"
		run sh -c "$CLEANENV PYTHONDONTWRITEBYTECODE=1 PYTHONSTARTUP='$sf' '$PY' -i < '$X/in.py'"
		same "-i, PYTHONSTARTUP=$sf" "$sf" "${sc}startup ran
stdin code"
	done
	# -i after a script: CPython does not read PYTHONSTARTUP there, so an
	# untrusted one is not read; stdin (a trusted file) is checked
	run sh -c "$CLEANENV PYTHONDONTWRITEBYTECODE=1 PYTHONSTARTUP='$NX/st.py' '$PY' -i '$X/ok.py' < '$X/in.py'"
	same "-i after a script, untrusted PYTHONSTARTUP not read" "$X/in.py" \
		"${sc}main ran
stdin code"
	# -i after a script, stdin a file: interactive input, refused only by
	# trusted_for(2) (stdin_model)
	for c in "$NX/st.py:1:0" "$X/stnox.py:0:1"; do
		sf=${c%%:*}; rest=${c#*:}
		run sh -c "$CLEANENV PYTHONDONTWRITEBYTECODE=1 '$PY' -i '$X/ok.py' < '$sf'"
		t_eq "policy $P: -i after a script, stdin from $sf, as interactive input" \
			"$(stdin_model "${rest%:*}" "${rest#*:}")" "$(iv '<stdin>' "${sc}main ran
startup ran")"
	done
	# code that is not a file: $NONFILE, the verdict the caller found for
	# it (trusted_for: the kernel's on a pipe; AT_EXECVE_CHECK: the
	# securebit's, clear)
	kp=$NONFILE
	run sh -c "echo 'print(\"piped\")' | $CLEANENV PYTHONDONTWRITEBYTECODE=1 PYTHONSTARTUP='$X/st.py' '$PY' -i"
	t_eq "policy $P: -i, piped stdin follows the kernel's pipe verdict" \
		"$kp" "$(iv '<stdin>' "${sc}startup ran
piped")"
	run sh -c "echo 'print(\"piped\")' | $CLEANENV PYTHONDONTWRITEBYTECODE=1 '$PY' -i '$X/ok.py'"
	t_eq "policy $P: -i after a script, piped stdin follows the pipe verdict" \
		"$kp" "$(iv '<stdin>' "${sc}main ran
piped")"
	umount "$STDLIB/sitecustomize.py"
}
