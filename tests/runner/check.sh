#!/bin/bash
# The test runner's own test: tests/run is the gate of every other test,
# so it is run here over made-up suites whose right totals are written
# below by hand, from tests/run's rules (its header), not from its output:
#   - RESULT lines are added up; a suite with none counts one failure;
#   - a non-zero exit without a reported failure counts one failure;
#   - skipped tests without a SKIPPED line count one failure;
#   - the skip contract (a list like tests/skips): a skip no line declares
#     for the kernel the suite ran on, more skips than declared, a RESULT
#     line with skips and no SKIPPED line of its suite (though another
#     suite of the log has one), a suite that ran nothing: one failure each;
#   - a "# vm-kernel: debug" case whose image is missing fails, naming
#     the make target;
#   - "# vm-after: host" cases start only after the host suites;
#   - with -j2 two jobs run at once, with -j1 one at a time.
# The VM runner is replaced by a command that runs the case on the host
# and records which kernel it was asked to boot.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/assert.sh"
SUITE=runner

# t_grep WHAT STRING FILE / t_grep_re WHAT REGEX FILE
t_grep() {
	if grep -a -q -F -- "$2" "$3"; then t_ok "$1"; else t_fail "$1: no '$2' in $3"; fi
}
t_grep_re() {
	if grep -a -q -E -- "$2" "$3"; then t_ok "$1"; else t_fail "$1: no /$2/ in $3"; fi
}

D=$(mktemp -d /tmp/tf-runner.XXXXXX)
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/cases" "$D/logs"

cat > "$D/fake-vm-run" <<'EOF'
#!/bin/bash
# Stands for tests/vm/run: same options, runs CMD on the host.
kernel=default
while [ $# -gt 0 ]; do
	case $1 in
	-t) shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "fake-vm-run: unexpected '$1'" >&2; exit 126 ;;
	esac
done
echo "kernel=$kernel"
exec bash "$@"
EOF
chmod +x "$D/fake-vm-run"

# Two cases that note when they start and end: with -j2 their spans
# overlap, with -j1 they do not.
for me in twin1 twin2; do
	cat > "$D/cases/$me.sh" <<EOF
date +%s%N > "$D/$me.start"
sleep 1
date +%s%N > "$D/$me.end"
echo "RESULT $me 1 0"
EOF
done
# overlap: did the twins' spans overlap?
overlap() {
	local s1 e1 s2 e2
	s1=$(cat "$D/twin1.start") e1=$(cat "$D/twin1.end")
	s2=$(cat "$D/twin2.start") e2=$(cat "$D/twin2.end")
	if [ "$s1" -lt "$e2" ] && [ "$s2" -lt "$e1" ]; then echo yes; else echo no; fi
}
printf 'echo "RESULT a 3 0"\n' > "$D/cases/a-pass.sh"
printf 'echo "RESULT b 2 1"\nexit 1\n' > "$D/cases/b-fail.sh"
printf 'echo "nothing to say"\n' > "$D/cases/c-silent.sh"
printf 'echo "RESULT d 1 0 2"\n' > "$D/cases/d-skip-no-reason.sh"
printf 'echo "SKIPPED e: no widget here"\necho "RESULT e 1 0 1"\n' > "$D/cases/e-skip.sh"
printf 'echo "RESULT g 1 0"\nexit 3\n' > "$D/cases/g-crash.sh"
printf 'echo "SKIPPED i: not on the list"\necho "RESULT i 1 0 1"\n' > "$D/cases/i-undeclared.sh"
printf 'echo "SKIPPED j: one widget may be missing"\necho "RESULT j 1 0 2"\n' > "$D/cases/j-toomany.sh"
printf 'echo "RESULT k 0 0"\n' > "$D/cases/k-nothing.sh"
printf 'echo "SKIPPED l: only on a host"\necho "RESULT l 1 0 1"\n' > "$D/cases/l-wrong-kernel.sh"
printf 'echo "SKIPPED m1: no widget here"\necho "RESULT m1 1 0 1"\necho "RESULT m2 1 0 1"\n' \
	> "$D/cases/m-per-suite.sh"
# The list of skips these cases may report (tests/skips' format).
printf '# made up\ne\tany\t1\tno * here\nj\tvm\t1\tone widget may be missing\n' > "$D/skips"
printf 'l\thost\t1\tonly on a host\nm*\tvm\t1\tno widget here\n' >> "$D/skips"
printf 'n\tany\t1\tone widget may be missing*\nhs\thost\t1\tonly on a host\n' >> "$D/skips"
printf 'echo "SKIPPED n: one widget may be missing (2 checks)"\necho "RESULT n 1 0 2"\n' > "$D/cases/n-reason-max.sh"
printf '# vm-kernel: debug\necho "RESULT h 5 0"\n' > "$D/cases/h-debug.sh"
cat > "$D/cases/f-after.sh" <<EOF
# vm-after: host
if [ -e "$D/host.done" ]; then echo "RESULT f 1 0"; else echo "RESULT f 0 1"; fi
EOF
# The host lane: one suite that takes a while, then marks its end.
printf 'after-host-lane\tsleep 2; echo "RESULT h1 4 0"; touch %s/host.done\n' "$D" > "$D/host-suites"
# A host suite whose skip is declared for the host only: passes there.
printf 'host-skip\techo "SKIPPED hs: only on a host"; echo "RESULT hs 1 0 1"\n' >> "$D/host-suites"

run() {
	TF_TEST_LOGS=$D/logs TF_VM_CASES=$D/cases TF_VM_RUN=$D/fake-vm-run \
		TF_VM_KERNEL=/dev/null TF_VM_KERNEL_DEBUG=$D/no-such-bzImage \
		TF_HOST_SUITES=$D/host-suites TF_SKIPS=$D/skips "$top/tests/run" "$@" > "$D/out" 2>&1
	echo $? > "$D/rc"
}

# By hand: passed 3+2+1+1+1+1(twins)+1+1(f)+4(h1) + 1(i)+1(j)+1(l)+2(m)
#      + 1(n)+1(hs) = 22 (h-debug never runs);
# failed 1(b) + 1(c: no RESULT) + 1(d: no reason) + 1(g: exit 3)
#      + 1(h: no image) + 1(i: undeclared) + 1(j: 2 skips, 1 said)
#      + 1(k: ran nothing) + 1(l: declared for the host only)
#      + 1(m2: no SKIPPED line of its own) + 1(n: 2 for a reason of 1) = 11;
# skipped 2(d) + 1(e) + 1(i) + 2(j) + 1(l) + 2(m) + 2(n) + 1(hs) = 12.
run -j2
t_eq "totals with -j2" "22 passed, 11 failed, 12 skipped" "$(tail -n 1 "$D/out")"
t_eq "exit status when a suite fails" 1 "$(cat "$D/rc")"
t_grep "the missing debug image is named with its make target" \
	"needs the kernel $D/no-such-bzImage: run 'make kernel-debug' first" "$D/out"
t_grep "the reasonless skip is reported" "suite d skipped 2 checks without saying why" "$D/out"
t_grep "an undeclared skip is reported" "a skip tests/skips does not declare" "$D/out"
t_grep "more skips than the SKIPPED lines say are reported" "suite j skipped 2 checks, its SKIPPED lines account for 1" "$D/out"
t_grep "more skips for a reason than declared are reported" "suite n skipped 2 checks for a reason tests/skips allows 1" "$D/out"
t_grep "a skip declared for the host passes there" "host:host-skip: hs: only on a host" "$D/out"
t_grep "a suite that ran nothing is reported" "suite k ran nothing" "$D/out"
t_grep "a skip declared for another kernel is reported" "vm:l-wrong-kernel: a skip tests/skips does not declare" "$D/out"
t_grep "a RESULT line's skips need a SKIPPED line of that suite" "suite m2 skipped 1 checks without saying why" "$D/out"
t_grep "the reason of a skip is listed" "vm:e-skip: e: no widget here" "$D/out"
t_grep_re "the summary has each suite's seconds" 'vm:twin1 +1 passed +0 failed +0 skipped +[0-9]+ s' "$D/out"
t_grep "a case is booted on the default kernel" "kernel=/dev/null" "$D/logs/vm-a-pass.log"

# Two at a time, then one at a time.
run -j2 twin
t_eq "-j2: the twins pass" "2 passed, 0 failed, 0 skipped" "$(tail -n 1 "$D/out")"
t_eq "-j2 runs two jobs at once" yes "$(overlap)"
run -j 1 twin
t_eq "-j1: the twins pass" "2 passed, 0 failed, 0 skipped" "$(tail -n 1 "$D/out")"
t_eq "-j1 runs one job at a time" no "$(overlap)"

# Only the after-host case and the host lane, two slots: the case must
# wait although a slot is free.
rm -f "$D/host.done"
run -j2 after
t_eq "vm-after: host waits for the host lane" "5 passed, 0 failed, 0 skipped" "$(tail -n 1 "$D/out")"

run -j 0
t_grep "-j 0 is refused" "tests/run: -j wants a number of jobs" "$D/out"
t_eq "-j 0 exit status" 2 "$(cat "$D/rc")"

# The real list of host suites (no TF_HOST_SUITES): --no-static leaves out
# exactly the four that only read or build the tree, --no-deb the two that
# need a Debian mirror; --system-only runs only the two of the Debian
# system; --list runs nothing.  Expected names from tests/run's header.
real_list() { (unset TF_HOST_SUITES; "$top/tests/run" --host-only --list "$@"); }
all=$(real_list | tr '\n' ' ')
for s in style shellcheck build deb lib install kernel-debconfig system; do
	case " $all" in
	*" host:$s "*) t_ok "--list names host:$s" ;;
	*) t_fail "--list lacks host:$s: $all" ;;
	esac
done
t_eq "--no-static --no-deb: the same list without style, shellcheck, build, kernel-debconfig, deb, system" \
	"$(printf '%s\n' $all | grep -v -x -e host:style -e host:shellcheck -e host:build \
		-e host:kernel-debconfig -e host:deb -e host:system | tr '\n' ' ')" \
	"$(real_list --no-static --no-deb | tr '\n' ' ')"
t_eq "--system-only: kernel-debconfig and system, no VM case" "host:kernel-debconfig host:system " \
	"$(unset TF_HOST_SUITES; "$top/tests/run" --system-only --list | tr '\n' ' ')"

t_done "$SUITE"
