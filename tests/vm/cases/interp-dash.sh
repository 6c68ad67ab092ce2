#!/bin/sh
# trusted-dash under fs.trust_policy 0..3 on the trustfor kernel: 'dash FILE',
# '. FILE', stdin (a regular file, a pipe, a character device) and -c.
# The shell's verdict (ran / refused with 126 naming the file, '<stdin>' or
# '-c') must equal the kernel's verdict for the same descriptor (the probe:
# trusted_for_exec on it; -c is judged as a pipe), and the kernel's verdicts
# must follow the policy bits (model in lib.sh).
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
# a trusted script (exec mount, 755: allowed under every policy) sourcing $1
printf '. "$1"\necho $V\n' > "$X/src.sh"; chmod 755 "$X/src.sh"

for P in 0 1 2 3; do
	echo "$P" > "$POLICY"
	t_eq "policy $P is set" "$P" "$(cat "$POLICY")"

	for f in "$X/ok.sh:0:0" "$NX/ok.sh:1:0" "$X/nox.sh:0:1"; do
		file=${f%%:*}; rest=${f#*:}
		kexp "script $file" "$file" "${rest%:*}" "${rest#*:}"
		run d "$file" a; same "dash $file" "$file" "ran a"
		run sh -c "$CLEANENV '$DASH' -s b < '$file'"
		t_eq "policy $P: stdin redirected from $file, checked as that file" \
			"$(kv "$file")" "$(iv '<stdin>' 'ran b')"
	done
	kexp "trusted sourcing script" "$X/src.sh" 0 0
	for f in "$X/lib.sh:0:0" "$NX/lib.sh:1:0" "$X/nolib.sh:0:1"; do
		file=${f%%:*}; rest=${f#*:}
		kexp ". $file" "$file" "${rest%:*}" "${rest#*:}"
		run d "$X/src.sh" "$file"; same ". $file" "$file" sourced
	done

	# code that is not a file: the kernel's verdict on the descriptor
	# itself (a pipe: allowed under policy 0 only), -c judged as a pipe
	knonfile
	run sh -c "echo 'echo piped' | $CLEANENV '$DASH'"
	t_eq "policy $P: piped stdin follows the kernel's pipe verdict" \
		"$k" "$(iv '<stdin>' piped)"
	run sh -c "cat '$X/ok.sh' | $CLEANENV '$DASH' -s c"
	t_eq "policy $P: trusted script piped in: still a pipe" \
		"$k" "$(iv '<stdin>' 'ran c')"
	run d -c 'echo cmd'
	t_eq "policy $P: -c follows the kernel's pipe verdict" "$k" "$(iv -c cmd)"
	# stdin a character device: /dev/null, not a regular file
	kd=$(kv - < /dev/null)
	t_eq "policy $P: kernel on /dev/null, per policy bits" \
		"$(model 0 0 1)" "$kd"
	run sh -c "$CLEANENV '$DASH' < /dev/null"
	t_eq "policy $P: stdin from /dev/null follows the kernel's verdict" \
		"$kd" "$(iv '<stdin>' '')"
done

t_done "$SUITE"
