#!/bin/sh
# trusted-dash under fs.trust_policy 0..3 on the trustfor kernel: 'dash FILE',
# '. FILE' and stdin from a file; the shell's verdict (ran / refused with 126
# naming the file) must equal the kernel's verdict for the same file.
# Needs a host build first: make -C interpreters all test-helpers
SUITE=interp-dash
TF_TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TF_TOP/interpreters/tests/lib.sh"

d() { $CLEANENV "$DASH" "$@"; }

WHO=shell
. "$TF_TOP/interpreters/tests/vm-lib.sh"

printf 'echo "ran $1"\n' > "$X/ok.sh"; chmod 755 "$X/ok.sh"
cp -p "$X/ok.sh" "$NX/ok.sh"
cp "$X/ok.sh" "$X/nox.sh"; chmod 644 "$X/nox.sh"
printf 'V=sourced\n' > "$X/lib.sh"; chmod 755 "$X/lib.sh"
cp -p "$X/lib.sh" "$NX/lib.sh"
cp "$X/lib.sh" "$X/nolib.sh"; chmod 644 "$X/nolib.sh"

for P in 0 1 2 3; do
	echo "$P" > "$POLICY"
	t_eq "policy $P is set" "$P" "$(cat "$POLICY")"

	for f in "$X/ok.sh:0:0" "$NX/ok.sh:1:0" "$X/nox.sh:0:1"; do
		file=${f%%:*}; rest=${f#*:}
		kexp "script $file" "$file" "${rest%:*}" "${rest#*:}"
		run d "$file" a; same "dash $file" "$file" "ran a"
		run sh -c "$CLEANENV '$DASH' -s b < '$file'"
		t_eq "policy $P: stdin from $file" "$("$VERDICT" "$file")" \
			"$(iv '<stdin>' 'ran b')"
	done
	for f in "$X/lib.sh:0:0" "$NX/lib.sh:1:0" "$X/nolib.sh:0:1"; do
		file=${f%%:*}; rest=${f#*:}
		kexp ". $file" "$file" "${rest%:*}" "${rest#*:}"
		run d -c ". '$file'; echo \$V"; same ". $file" "$file" sourced
	done
	# piped stdin is not a file: never checked by trusted-dash
	run sh -c "cat '$NX/ok.sh' | $CLEANENV '$DASH' -s c"
	t_eq "policy $P: piped script runs (not checked)" "0:ran c" "$rc:$out"
done
echo "$old_policy" > "$POLICY"

t_done "$SUITE"
