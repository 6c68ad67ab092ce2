#!/bin/sh
# trusted-python3 on the host kernel: scripts, modules, byte code, non-file
# code, and without -S site, zipimport, PYTHONSTARTUP and -i (py-site.sh).
# The verdicts expected are AT_EXECVE_CHECK's (mainline >= 6.14), which
# applies both policy bits (P=3 in the model of lib.sh): on a kernel without
# it (Debian 12's 6.1, or the trustfor kernel, whose trusted_for verdicts
# tests/vm/cases/interp-python.sh checks), those checks are counted as
# skipped with the reason; what holds on every kernel (trusted files run,
# the CLI's errors, the fallback rule when the kernel cannot answer) runs
# everywhere.
SUITE=interp-python-host
TF_TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TF_TOP/interpreters/tests/lib.sh"
. "$TF_TOP/interpreters/tests/secbits-matrix.sh"

restrict_file_env

STDLIB=/usr/lib/python3.11
# A clean environment: no PYTHONDONTWRITEBYTECODE etc. from the caller.
py() { $CLEANENV "$PY" -S "$@"; }
pyenv() { $CLEANENV "$@"; }
WHO=interpreter
P=3

t_eq "libtrustedfor uses what the kernel offers first" "$KERNEL_DEFAULT" \
	"$("$VERDICT" --backend)"

# --- the standard library itself is interpreted code -----------------------
needs execve_check "$XC_ONLY"
enc=$STDLIB/encodings/__pycache__/__init__.cpython-311.pyc
if [ -z "$SKIPPING" ] && [ -x "$enc" ]; then
	echo "# $enc is executable on this host; stdlib refusal not observable"
	t_fail "stdlib byte code is not executable on a stock Debian host"
else
	# Its cache is refused (a cache miss), then its source is refused.
	kernel "stdlib byte code (mode 644)" "$enc" deny
	kernel "stdlib source (mode 644)" "$STDLIB/encodings/__init__.py" deny
	# (a trusted script, not -c, which trusted_for may refuse first)
	printf 'pass\n' > "$X/first.py"; chmod 755 "$X/first.py"
	run py "$X/first.py"
	expect_denied "stdlib not executable: startup refused" \
		"$STDLIB/encodings/__init__.py" "no execute permission"
fi
end_needs
# From here on: an executable copy of the standard library (what the fix
# policyctl suggests, chmod +x of interpreted files, gives), bound over the
# real one in this mount namespace only.
mkdir "$X/stdlib"
(cd "$STDLIB" && tar cf - --exclude=./test --exclude=./idlelib \
	--exclude=./tkinter --exclude=./lib2to3 .) | tar xf - -C "$X/stdlib"
chmod -R a+x "$X/stdlib"
mount --bind "$X/stdlib" "$STDLIB"

printf 'print("main ran")\n' > "$X/ok.py"; chmod 755 "$X/ok.py"
cp "$X/ok.py" "$NX/ok.py"
cp "$X/ok.py" "$X/nox.py"; chmod 644 "$X/nox.py"
printf 'import sys\nprint(sys.argv[1:], sys.path[0])\n' > "$X/argv.py"
chmod 755 "$X/argv.py"
mkdir "$X/lib" "$NX/lib"
printf 'VALUE = 42\n' > "$X/lib/goodmod.py"; chmod 755 "$X/lib/goodmod.py"
printf 'VALUE = 13\n' > "$X/lib/nox_mod.py"; chmod 644 "$X/lib/nox_mod.py"
printf 'VALUE = 7\n' > "$NX/lib/nxmod.py"; chmod 755 "$NX/lib/nxmod.py"
printf 'print("as main", __name__)\n' > "$X/lib/mainmod.py"
chmod 755 "$X/lib/mainmod.py"
imp() { # imp NAME DIR: script printing "before", importing NAME, printing VALUE
	printf 'import sys\nsys.path.insert(0, "%s")\nprint("before")\nimport %s\nprint(%s.VALUE)\n' \
		"$2" "$1" "$1" > "$X/imp_$1.py"
	chmod 755 "$X/imp_$1.py"
}

# --- on every kernel: trusted files run, CLI errors -------------------------
run py "$X/ok.py"
expect_ran "trusted script runs" "main ran"
run py "$X/missing.py"
t_eq "missing script: exit status 2" 2 "$rc"
t_has "missing script: error names it" "$X/missing.py" "$err"
# argv and sys.path[0] are set as CPython does for a script
run py "$X/argv.py" a b
expect_ran "script gets argv and sys.path[0]" "['a', 'b'] $X"
imp goodmod "$X/lib"
run py "$X/imp_goodmod.py"
expect_ran "trusted script imports trusted module" "before
42"
run pyenv PYTHONPATH="$X/lib" "$PY" -S -m mainmod
expect_ran "-m trusted module" "as main __main__"
run sh -c "$CLEANENV '$PY' -S < '$X/ok.py'"
expect_ran "stdin redirected from a trusted file" "main ran"

# --- AT_EXECVE_CHECK's verdicts: main script, modules -----------------------
needs execve_check "$XC_ONLY"
kernel "executable stdlib copy" "$enc" allow
kernel "script on exec mount, mode 755" "$X/ok.py" allow
kernel "script on noexec mount" "$NX/ok.py" deny
run py "$NX/ok.py"
expect_denied "script on noexec mount" "$NX/ok.py" "on a noexec mount"
t_eq "script on noexec mount: nothing ran" "" "$out"
# A hostile file name (ESC, RLO) is shown escaped in the refusal.
hostile="$NX/$(printf 'h\033[2Jx\342\200\256.py')"
cp "$NX/ok.py" "$hostile"
run py "$hostile"
t_eq "hostile name: exit status" 126 "$rc"
t_has "hostile name: shown escaped" 'h\x1b[2Jx\xe2\x80\xae.py: refused to interpret' "$err"
kernel "script without x bit" "$X/nox.py" deny
run py "$X/nox.py"
expect_denied "script without x bit" "$X/nox.py" "no execute permission"

imp nox_mod "$X/lib"
kernel "module without x bit" "$X/lib/nox_mod.py" deny
run py "$X/imp_nox_mod.py"
expect_denied "trusted script imports untrusted module" "$X/lib/nox_mod.py" \
	"no execute permission"
t_eq "untrusted module: script ran up to the import" "before" "$out"
imp nxmod "$NX/lib"
kernel "module in noexec directory" "$NX/lib/nxmod.py" deny
run py "$X/imp_nxmod.py"
expect_denied "module imported from a noexec mount" "$NX/lib/nxmod.py" \
	"on a noexec mount"
run pyenv PYTHONPATH="$NX/lib" "$PY" -S -m nxmod
expect_denied "-m module on a noexec mount" "$NX/lib/nxmod.py"
end_needs

# --- byte-code cache ---------------------------------------------------------
# The cache is interpreted code too.  To see which one ran, the cache is
# replaced by the byte code of a different source with the same size and
# mtime, which importlib accepts as up to date.
mkdir "$X/pc" "$T/fake"
printf 'VALUE = "from source"\n' > "$X/pc/cached.py"; chmod 755 "$X/pc/cached.py"
imp cached "$X/pc"
run py "$X/imp_cached.py"
expect_ran "first import writes the cache" "before
from source"
pyc=$X/pc/__pycache__/cached.cpython-311.pyc
t_run "cache file written" test -f "$pyc"
# importlib writes caches with mode & 0666: never executable, so not trusted
# by the kernel, so treated as a cache miss: the (trusted) source is used.
needs execve_check "$XC_ONLY"
kernel "cache written by importlib (no x bit)" "$pyc" deny
run py "$X/imp_cached.py"
expect_ran "untrusted cache: source used, no error" "before
from source"
end_needs
printf 'VALUE = "from cache!"\n' > "$T/fake/cached.py"
touch -r "$X/pc/cached.py" "$T/fake/cached.py"
pyenv /usr/bin/python3 -c "import py_compile; py_compile.compile('$T/fake/cached.py', cfile='$pyc')"
chmod 755 "$pyc"
run py "$X/imp_cached.py"
expect_ran "trusted cache is used" "before
from cache!"
chmod 644 "$pyc"
needs execve_check "$XC_ONLY"
kernel "executable cache, once chmod 644" "$pyc" deny
run py "$X/imp_cached.py"
expect_ran "untrusted cache is not used" "before
from source"
end_needs
pyenv /usr/bin/python3 -c "import py_compile; py_compile.compile('$T/fake/cached.py', cfile='$pyc')"
mkdir -p "$NX/pc/__pycache__"
cp "$X/pc/cached.py" "$NX/pc/cached.py"
touch -r "$X/pc/cached.py" "$NX/pc/cached.py"
cp "$pyc" "$NX/pc/__pycache__/"; chmod 755 "$NX/pc/__pycache__/"*.pyc
imp cached "$NX/pc"
needs execve_check "$XC_ONLY"
run py "$X/imp_cached.py"
expect_denied "cache and source on a noexec mount" "$NX/pc/cached.py" \
	"on a noexec mount"
t_eq "cache on a noexec mount: not used" "before" "$out"
end_needs

# A sourceless .pyc (no .py next to it) is read by SourcelessFileLoader,
# which CPython does not route through io.open_code; the launcher does.
mkdir "$X/sl" "$NX/sl"
printf 'VALUE = "sourceless"\n' > "$T/slmod.py"
pyenv /usr/bin/python3 -c "import py_compile; py_compile.compile('$T/slmod.py', cfile='$X/sl/slmod.pyc')"
chmod 755 "$X/sl/slmod.pyc"
cp -p "$X/sl/slmod.pyc" "$NX/sl/slmod.pyc"
imp slmod "$X/sl"
run py "$X/imp_slmod.py"
expect_ran "sourceless .pyc, trusted" "before
sourceless"
imp slmod "$NX/sl"
needs execve_check "$XC_ONLY"
kernel "sourceless .pyc on noexec mount" "$NX/sl/slmod.pyc" deny
run py "$X/imp_slmod.py"
expect_denied "sourceless .pyc on noexec mount" "$NX/sl/slmod.pyc"
end_needs

# A .pyc as the main script runs from the checked descriptor.
printf 'print("pyc main")\n' > "$T/pmain.py"
pyenv /usr/bin/python3 -c "import py_compile; py_compile.compile('$T/pmain.py', cfile='$X/main.pyc')"
chmod 755 "$X/main.pyc"
cp -p "$X/main.pyc" "$NX/main.pyc"
run py "$X/main.pyc"
expect_ran ".pyc main script, trusted" "pyc main"
needs execve_check "$XC_ONLY"
run py "$NX/main.pyc"
expect_denied ".pyc main script on noexec mount" "$NX/main.pyc"
end_needs

# --- runpy and directories ---------------------------------------------------
printf 'import runpy\nrunpy.run_path("%s")\n' "$NX/ok.py" > "$X/runpath.py"
chmod 755 "$X/runpath.py"
mkdir "$X/app"
printf 'print("dir main")\n' > "$X/app/__main__.py"
chmod 644 "$X/app/__main__.py"
needs execve_check "$XC_ONLY"
run py "$X/runpath.py"
expect_denied "runpy.run_path of a noexec file" "$NX/ok.py"
run py "$X/app"
expect_denied "directory whose __main__.py is not executable" \
	"$X/app/__main__.py"
end_needs
chmod 755 "$X/app/__main__.py"
run py "$X/app"
expect_ran "directory with executable __main__.py" "dir main"

# --- stdin, -c: code that is not a file ------------------------------------
needs execve_check "$XC_ONLY"
run sh -c "$CLEANENV '$PY' -S < '$NX/ok.py'"
expect_stdin_file "stdin redirected from a noexec file" 1 0 "main ran" \
	"on a noexec mount"
run sh -c "$CLEANENV '$TFRUN' --deny-interactive -- '$PY' -S < '$NX/ok.py'"
expect_denied "stdin from a noexec file, SECBIT_EXEC_DENY_INTERACTIVE set" \
	"<stdin>" "on a noexec mount (AT_EXECVE_CHECK, SECBIT_EXEC_DENY_INTERACTIVE is set)"
run sh -c "echo 'print(6 * 7)' | $CLEANENV '$PY' -S"
expect_nonfile "piped stdin, SECBIT_EXEC_DENY_INTERACTIVE clear" "<stdin>" "42"
run sh -c "echo 'print(6 * 7)' | $CLEANENV '$TFRUN' --deny-interactive -- '$PY' -S"
expect_denied "piped stdin, SECBIT_EXEC_DENY_INTERACTIVE set" "<stdin>" \
	"SECBIT_EXEC_DENY_INTERACTIVE"
run py -c 'print("cmd")'
expect_nonfile "-c, SECBIT_EXEC_DENY_INTERACTIVE clear" -c "cmd"
run pyenv "$TFRUN" --deny-interactive -- "$PY" -S -c 'print("cmd")'
expect_denied "-c, SECBIT_EXEC_DENY_INTERACTIVE set" "-c"
# -i: interactive mode after the script is code that is not a file
run sh -c "echo 'print(\"after\")' | $CLEANENV '$PY' -S -i '$X/ok.py'"
t_eq "-i after a script, securebit clear: $(nonfile_case "both ran" "the session refused")" \
	"$(nonfile_case "0:main ran
after" "126:main ran")" "$rc:$out"
run sh -c "echo 'print(\"after\")' | $CLEANENV '$TFRUN' --deny-interactive -- '$PY' -S -i '$X/ok.py'"
expect_denied "-i after a script, securebit set" "<stdin>" \
	"SECBIT_EXEC_DENY_INTERACTIVE"
t_eq "-i refused: the script itself ran" "main ran" "$out"
# files stay allowed under the securebit: it is about non-file code only
run pyenv "$TFRUN" --deny-interactive -- "$PY" -S "$X/ok.py"
expect_ran "script under SECBIT_EXEC_DENY_INTERACTIVE" "main ran"
# A terminal on stdin (script(1)'s pseudo-terminal, which also gets
# stderr and echoes the input): the session, at start-up or after a
# script, takes one path.
printf 'print("startup ran")\n' > "$X/tty_st.py"; chmod 755 "$X/tty_st.py"
on_tty() { # on_tty COMMAND: COMMAND on a terminal that types print("a" + "b")
	printf 'print("a" + "b")\n' > "$T/tty.in"
	run env SHELL=/bin/sh script -qec "$1" /dev/null < "$T/tty.in"
}
lines() { # lines REGEX: how many lines of the last run's output match
	printf '%s\n' "$out" | tr -d '\r' | grep -c -e "$1"
}
BANNER='every file interpreted is checked by the kernel'
REFUSED='^trusted-python3: <stdin>: refused to interpret: '
on_tty "$CLEANENV PYTHONSTARTUP=$X/tty_st.py $PY -S"
t_eq "terminal: banner, PYTHONSTARTUP, the commands (status:banner:startup:ab)" \
	"$(nonfile_case 0:1:1:1 126:0:0:0)" "$rc:$(lines "$BANNER"):$(lines '^startup ran$'):$(lines 'ab$')"
on_tty "$CLEANENV PYTHONSTARTUP=$X/tty_st.py PYTHONINSPECT=1 $PY -S $X/ok.py"
t_eq "terminal, PYTHONINSPECT after a script: script, $(nonfile_case "session" "no session"), no banner nor PYTHONSTARTUP" \
	"$(nonfile_case 0:1:1:0:0 126:1:0:0:0)" "$rc:$(lines '^main ran$'):$(lines 'ab$'):$(lines "$BANNER"):$(lines 'startup ran')"
on_tty "$CLEANENV PYTHONSTARTUP=$X/tty_st.py $TFRUN --deny-interactive -- $PY -S"
t_eq "terminal, SECBIT_EXEC_DENY_INTERACTIVE set: refused before anything ran" \
	126:1:0:0:0 "$rc:$(lines "${REFUSED}code not read from a regular file and SECBIT_EXEC_DENY_INTERACTIVE is set$"):$(lines "$BANNER"):$(lines 'startup ran'):$(lines 'ab$')"
on_tty "$CLEANENV PYTHONINSPECT=1 $TFRUN --deny-interactive -- $PY -S $X/ok.py"
t_eq "terminal, PYTHONINSPECT after a script, securebit set: the session refused" \
	126:1:1:0 "$rc:$(lines '^main ran$'):$(lines "${REFUSED}interactive commands refused: SECBIT_EXEC_DENY_INTERACTIVE is set$"):$(lines 'ab$')"
end_needs

# --- without -S: site, zipimport, PYTHONSTARTUP, -i (py-site.sh) ------------
# AT_EXECVE_CHECK applies both policy bits to files (P=3); code that is not
# a file follows the securebit SECBIT_EXEC_DENY_INTERACTIVE, clear here,
# and fs.trust_policy where the kernel has trusted_for (NONFILE).
. "$TF_TOP/interpreters/tests/py-site.sh"
py_site_setup
needs execve_check "$XC_ONLY"
py_site_checks
end_needs

# --- kernel cannot answer: fallback rule (any kernel) ------------------------
run pyenv "$TFRUN" --enosys -- "$VERDICT" "$X/nox.py"
t_eq "seccomp and a tmpfs over /proc/sys/fs hide the kernel's interfaces" \
	"error ENOSYS" "$(printf '%s\n' "$out" | cut -f1,2 | tr '\t' ' ')"
run pyenv "$TFRUN" --enosys -- "$PY" -S "$X/nox.py"
expect_ran "fallback: script without x bit allowed" "main ran"
run pyenv "$TFRUN" --enosys -- "$PY" -S "$NX/ok.py"
expect_denied "fallback: script on noexec mount denied" "$NX/ok.py" \
	"fallback rule"
run sh -c "echo 'print(6 * 7)' | $CLEANENV '$TFRUN' --enosys -- '$PY' -S"
expect_ran "fallback: piped stdin allowed" "42"
run pyenv "$TFRUN" --enosys -- "$PY" -S -c 'print("cmd")'
expect_ran "fallback: -c allowed" "cmd"

# --- a kernel with trusted_for behind a seccomp filter: fail closed ----------
# The filter alone (fs.trust_policy still there): a container profile that
# does not know the system call, not a kernel that cannot answer; the
# library says EPERM, and the interpreter refuses instead of applying the
# fallback rule.
needs trusted_for "needs trusted_for(2) (the trustfor kernel)"
run $BASEENV "$TFRUN" --filter-only -- "$VERDICT" "$X/ok.py"
t_eq "filtered trusted_for: the library fails closed" \
	"deny EPERM" "$(printf '%s\n' "$out" | cut -f1,2 | tr '\t' ' ')"
run $BASEENV "$TFRUN" --filter-only -- "$PY" -S "$X/ok.py"
expect_denied "filtered trusted_for: a trusted script is refused" "$X/ok.py" \
	"cannot check it"
run $BASEENV "$TFRUN" --filter-only -- "$PY" -S -c 'print("matrix ran")'
expect_denied "filtered trusted_for: -c is refused" "-c" "cannot check it"
end_needs

# --- one run, one check of the main script (any kernel) ---------------------
# The launcher asked zipimport whether the script was an archive, which
# opened it again through io.open_code: each run checked its script twice
# (two verdicts in trusttop, two audit records for one refused run).
# strace sees what the kernel was asked.
strace -f -qq -o "$T/strace" -e trace=openat,execveat $BASEENV "$PY" -S "$X/ok.py" > /dev/null 2>&1
t_eq "main script: opened once" 1 "$(grep -c "openat(AT_FDCWD, \"$X/ok.py\"" "$T/strace")"
t_eq "main script: asked once with AT_EXECVE_CHECK (where the kernel has it)" \
	"$(case " $("$VERDICT" --kernel) " in *" execve_check "*) echo 1 ;; *) echo 0 ;; esac)" \
	"$(awk -v f="\"$X/ok.py\"" '
		# the descriptors openat() returned for the script, until reused
		/openat\(/ { fd = $NF; if (index($0, "openat(AT_FDCWD, " f ",")) s[fd] = 1; else delete s[fd] }
		/execveat\(.*0x10000\)/ { split($0, a, /[(,]/); if (a[2] in s) n++ }
		END { print n + 0 }' "$T/strace")"
# A zip archive still runs its __main__ (zipimport, through io.open_code).
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("__main__.py", "print(\"zip main ran\")\n")' "$X/main.zip"
chmod 755 "$X/main.zip"
run py "$X/main.zip"
expect_ran "zip archive as the main script" "zip main ran"
printf '#!/usr/bin/env python3\n' | cat - "$X/main.zip" > "$X/main.pyz"
chmod 755 "$X/main.pyz"
run py "$X/main.pyz"
expect_ran "zip archive behind a #! line" "zip main ran"

# --- the exec securebits, every combination (secbits-matrix.sh) --------------
M_INTERP="$PY -S"
M_EXT=.py
M_CODE='print("matrix ran")'
M_CMD='print("matrix ran")'
secbits_matrix

needs_done
t_done "$SUITE"
