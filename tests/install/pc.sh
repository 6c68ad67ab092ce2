#!/bin/bash
# The installed libtrustedfor.pc describes the installed paths, for any
# PREFIX / LIBDIR / INCDIR: the library is built once with the default
# PREFIX (/usr/local, the build's), then installed into staging directories
# (DESTDIR) with other paths, and a small program is compiled, linked and run
# against each staged tree with pkg-config alone (PKG_CONFIG_LIBDIR and
# PKG_CONFIG_SYSROOT_DIR pointing into the stage).  The compiler's and
# linker's own traces (-H, --trace) must show the staged header and library.
# Prints "RESULT install-pc <passed> <failed>".
# usage: tests/install/pc.sh     (no root needed; builds into a temp dir)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
suite=install-pc
SUITE=$suite
tmp=$(mktemp -d /tmp/tf-install-pc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

die() { t_fail "$*"; t_done "$suite"; exit 1; }

command -v pkg-config > /dev/null || die "pkg-config is not installed (apt-get install pkgconf)"
cc=${CC:-cc}
# The build: default PREFIX, its own output directory.
make -s -C "$top/lib" O="$tmp/build" SAN=0 all > "$tmp/build.log" 2>&1 ||
	{ tail -5 "$tmp/build.log"; die "make -C lib all failed (log above)"; }

cat > "$tmp/prog.c" <<'C'
#include <stdio.h>
#include <trustedfor.h>
int main(void)
{
	char buf[64];

	printf("%s %s\n", tf_reason_str(TF_REASON_NOEXEC_MOUNT |
					 TF_REASON_FILE_PERM, buf, sizeof(buf)),
	       tf_backend_name(TF_BACKEND_NONE));
	return 0;
}
C

# stage NAME PREFIX LIBDIR INCDIR: install with those paths (LIBDIR and
# INCDIR empty: the Makefile's defaults, PREFIX/lib and PREFIX/include),
# then check the .pc and build and run the program against the stage.
stage() {
	local name=$1 prefix=$2 libdir=$3 incdir=$4 d=$tmp/$1 args pc got out
	args=(PREFIX="$prefix")
	[ -n "$libdir" ] && args+=(LIBDIR="$libdir")
	[ -n "$incdir" ] && args+=(INCDIR="$incdir")
	libdir=${libdir:-$prefix/lib} incdir=${incdir:-$prefix/include}
	if ! make -s -C "$top/lib" O="$tmp/build" SAN=0 DESTDIR="$d" "${args[@]}" \
		install > "$tmp/$name.log" 2>&1; then
		sed 's/^/#   /' "$tmp/$name.log"
		t_fail "$name: make install ${args[*]} DESTDIR=... failed"
		return
	fi
	pc=$d$libdir/pkgconfig/libtrustedfor.pc
	if [ ! -f "$pc" ]; then
		t_fail "$name: no libtrustedfor.pc at DESTDIR$libdir/pkgconfig"
		return
	fi
	# The .pc's variables are the install's paths (read by pkg-config
	# without the sysroot, as a program on the target would).
	got=$(for v in prefix libdir includedir; do
		PKG_CONFIG_LIBDIR=$d$libdir/pkgconfig pkg-config --variable=$v libtrustedfor 2>&1
	done | tr '\n' ' ')
	t_eq "$name: .pc prefix libdir includedir" "$prefix $libdir $incdir " "$got"
	# Compile and link with pkg-config's flags only, against the stage.
	local flags
	flags=$(PKG_CONFIG_LIBDIR=$d$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$d \
		pkg-config --cflags --libs libtrustedfor 2>&1) ||
		{ t_fail "$name: pkg-config --cflags --libs: $flags"; return; }
	# shellcheck disable=SC2086 # pkg-config's output is a list of flags
	if ! $cc -H -o "$tmp/$name.prog" "$tmp/prog.c" $flags -Wl,--trace > "$tmp/$name.cc" 2>&1; then
		sed 's/^/#   /' "$tmp/$name.cc"
		t_fail "$name: cc prog.c \$(pkg-config --cflags --libs libtrustedfor) failed (flags: $flags)"
		return
	fi
	if grep -q "^\. $d$incdir/trustedfor\.h$" "$tmp/$name.cc" &&
		grep -Eq "^$d$libdir/libtrustedfor\.so$" "$tmp/$name.cc"; then
		t_ok "$name: built with the staged header and library (flags: $flags)"
	else
		grep -E 'trustedfor' "$tmp/$name.cc" | sed 's/^/#   /'
		t_fail "$name: the build did not use DESTDIR$incdir/trustedfor.h and DESTDIR$libdir/libtrustedfor.so"
	fi
	out=$(LD_LIBRARY_PATH=$d$libdir "$tmp/$name.prog" 2>&1)
	t_eq "$name: program runs against the staged libtrustedfor.so.1" \
		"noexec_mount,file_perm none" "$out"
}

stage usr /usr "" ""
stage debian-multiarch /usr /usr/lib/x86_64-linux-gnu ""
stage custom /opt/tf-test /opt/tf-test/lib64/sub /opt/tf-test/inc

# Bad input: a relative PREFIX is refused with one line naming it.
out=$(make -s -C "$top/lib" O="$tmp/build" SAN=0 DESTDIR="$tmp/bad" PREFIX=usr install 2>&1)
rc=$?
if [ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q "install path 'usr' is not absolute"; then
	t_ok "PREFIX=usr refused: $(printf '%s\n' "$out" | grep -m1 'not absolute')"
else
	t_fail "PREFIX=usr: expected a refusal naming the path, got exit $rc: $out"
fi
t_done "$suite"
