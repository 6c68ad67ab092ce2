#!/bin/sh
# trusted-python3 under fs.trust_policy 0..3 on the trustfor kernel: for
# every case, the interpreter's verdict (ran / refused with 126 naming the
# file) must equal the kernel's own verdict for the same file (the probe:
# open + trusted_for_exec), and the kernel's verdicts must follow the policy
# bits (bit 0 noexec mounts, bit 1 exec permission; model in lib.sh).
# With -S (scripts, modules, caches, stdin, -c), then without it: site
# (.pth, sitecustomize, usercustomize), zipimport, PYTHONSTARTUP and -i
# (interpreters/tests/py-site.sh).
# Needs a host build first: make -C interpreters all test-helpers
SUITE=interp-python
TF_TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TF_TOP/interpreters/tests/lib.sh"

STDLIB=/usr/lib/python3.11
py() { $CLEANENV "$PY" -S "$@"; }

WHO=interpreter
. "$TF_TOP/interpreters/tests/vm-lib.sh"

printf 'print("main ran")\n' > "$X/ok.py"; chmod 755 "$X/ok.py"
cp -p "$X/ok.py" "$NX/ok.py"
cp "$X/ok.py" "$X/nox.py"; chmod 644 "$X/nox.py"
mkdir "$X/lib" "$NX/lib"
printf 'VALUE = 7\n' > "$NX/lib/nxmod.py"; chmod 755 "$NX/lib/nxmod.py"
printf 'VALUE = 13\n' > "$X/lib/noxmod.py"; chmod 644 "$X/lib/noxmod.py"
printf 'VALUE = 42\n' > "$X/lib/goodmod.py"; chmod 755 "$X/lib/goodmod.py"
imp() { # imp SCRIPT DIR MODULE
	printf 'import sys\nsys.path.insert(0, "%s")\nimport %s\nprint(%s.VALUE)\n' \
		"$2" "$3" "$3" > "$1"
	chmod 755 "$1"
}
imp "$X/imp_nx.py" "$NX/lib" nxmod
imp "$X/imp_nox.py" "$X/lib" noxmod
imp "$X/imp_good.py" "$X/lib" goodmod
# byte-code caches replaced by the byte code of a same-size, same-mtime
# source, so the output tells whether the cache or the source ran
mkdir -p "$X/pc" "$NX/pc" "$T/fake"
printf 'VALUE = "from source"\n' > "$X/pc/cached.py"; chmod 755 "$X/pc/cached.py"
cp -p "$X/pc/cached.py" "$NX/pc/cached.py"
printf 'VALUE = "from cache!"\n' > "$T/fake/cached.py"
touch -r "$X/pc/cached.py" "$T/fake/cached.py"
touch -r "$X/pc/cached.py" "$NX/pc/cached.py"
imp "$X/imp_pc.py" "$X/pc" cached
imp "$X/imp_nxpc.py" "$NX/pc" cached
fake_cache() { # fake_cache DIR MODE
	$CLEANENV /usr/bin/python3 -c "import py_compile; py_compile.compile('$T/fake/cached.py', cfile='$1/__pycache__/cached.cpython-311.pyc')"
	chmod "$2" "$1/__pycache__/cached.cpython-311.pyc"
}
# An executable copy of the standard library (what policyctl's fix, chmod +x
# of interpreted files, gives), bound over it after the as-installed check.
mkdir "$X/stdlib"
(cd "$STDLIB" && tar cf - --exclude=./test --exclude=./idlelib \
	--exclude=./tkinter --exclude=./lib2to3 .) | tar xf - -C "$X/stdlib"
chmod -R a+x "$X/stdlib"
enc_src=$STDLIB/encodings/__init__.py
. "$TF_TOP/interpreters/tests/py-site.sh"
py_site_setup

for P in 0 1 2 3; do
	echo "$P" > "$POLICY"
	t_eq "policy $P is set" "$P" "$(cat "$POLICY")"

	# the standard library as installed (mode 644): refused under bit 1
	kexp "stdlib source (mode 644)" "$enc_src" 0 1
	run py "$X/ok.py"
	if [ "$rc" = 126 ]; then same "stdlib as installed" "$enc_src" ""
	else same "stdlib as installed" "$enc_src" "main ran"; fi

	mount --bind "$X/stdlib" "$STDLIB"

	kexp "script, exec mount, 755" "$X/ok.py" 0 0
	run py "$X/ok.py"; same "script, exec mount, 755" "$X/ok.py" "main ran"
	kexp "script on noexec mount" "$NX/ok.py" 1 0
	run py "$NX/ok.py"; same "script on noexec mount" "$NX/ok.py" "main ran"
	kexp "script without x" "$X/nox.py" 0 1
	run py "$X/nox.py"; same "script without x" "$X/nox.py" "main ran"

	run py "$X/imp_good.py"; same "trusted module" "$X/lib/goodmod.py" 42
	kexp "module in noexec dir" "$NX/lib/nxmod.py" 1 0
	run py "$X/imp_nx.py"; same "module from noexec dir" "$NX/lib/nxmod.py" 7
	kexp "module without x" "$X/lib/noxmod.py" 0 1
	run py "$X/imp_nox.py"
	same "trusted script importing untrusted module" "$X/lib/noxmod.py" 13

	# cache (mode 644) next to a trusted source: used only when trusted
	fake_cache "$X/pc" 644
	pyc=$X/pc/__pycache__/cached.cpython-311.pyc
	kexp "cache without x" "$pyc" 0 1
	k=$(kv "$pyc")
	run py "$X/imp_pc.py"
	case $rc:$out in
	"0:from cache!") i=allow ;; "0:from source") i=deny ;;
	*) i="unexpected(rc=$rc out=$out err=$err)" ;;
	esac
	t_eq "policy $P: .pyc cache used iff the kernel trusts it ($k)" "$k" "$i"
	# cache and source (both 755) on a noexec mount
	fake_cache "$NX/pc" 755
	run py "$X/imp_nxpc.py"
	case $rc:$out in
	"0:from cache!") i=allow ;;
	*) i=$(iv "$NX/pc/cached.py" "") ;;
	esac
	t_eq "policy $P: cache on noexec mount" \
		"$(kv "$NX/pc/__pycache__/cached.cpython-311.pyc")" "$i"

	# code that is not a file: the kernel's verdict on a pipe
	k=$(echo | kv -)
	t_eq "policy $P: kernel on a pipe" "$([ "$P" = 0 ] && echo allow || echo deny)" "$k"
	run py -c 'print("cmd")'; t_eq "policy $P: -c follows the pipe verdict" "$k" "$(iv -c cmd)"
	run sh -c "echo 'print(\"piped\")' | $CLEANENV '$PY' -S"
	t_eq "policy $P: piped stdin follows the pipe verdict" "$k" "$(iv '<stdin>' piped)"
	run sh -c "$CLEANENV '$PY' -S < '$X/nox.py'"
	t_eq "policy $P: stdin from a file is checked as a file" \
		"$(kv "$X/nox.py")" "$(iv '<stdin>' 'main ran')"

	# without -S (code that is not a file: the kernel's pipe verdict $k)
	NONFILE=$k
	py_site_checks

	umount "$STDLIB"
done

t_done "$SUITE"
