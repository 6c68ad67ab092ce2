# The skip contract of tests/run, over one suite run's log.
# usage: awk -F'\t' -v name=NAME -v feats="FEATURES" -f skips.awk LIST LOG
#   LIST      tests/skips: "SUITE<TAB>KERNEL<TAB>MAX<TAB>REASON" lines
#   FEATURES  what the kernel the suite ran on has, space-separated:
#             host or vm, trusted_for, execve_check
# Prints, one a line:
#   FAIL<TAB>why   a broken rule (each one counts a failure):
#                  a SKIPPED line no entry of LIST declares; a suite whose
#                  RESULT line skips checks and no SKIPPED line names it,
#                  or more checks than its SKIPPED lines account for; a
#                  reason of a suite (an entry) covering more checks than
#                  its MAX; a suite that ran nothing (RESULT x 0 0)
# A SKIPPED line accounts for N checks when its reason says "(N checks)",
# else for one.
#   SKIP<TAB>line  a declared skip, for the summary
# A KERNEL of "any" always holds; "X" holds when FEATURES has X; "no-X"
# when it has not.  SUITE and REASON are shell-style globs (* and ?).
function glob2re(g,    i, c, re) {
	re = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") re = re ".*"
		else if (c == "?") re = re "."
		else if (index("\\^$.[]|()+{}/", c)) re = re "\\" c
		else re = re c
	}
	return re "$"
}
function holds(k) {
	if (k == "any") return 1
	if (substr(k, 1, 3) == "no-") return !index(feats, " " substr(k, 4) " ")
	return index(feats, " " k " ") > 0
}
BEGIN { feats = " " feats " " }
FNR == NR {
	if ($0 ~ /^[ \t]*(#|$)/) next
	if (NF != 4 || $3 !~ /^[0-9]+$/) {
		printf "FAIL\t%s:%d: not SUITE<TAB>KERNEL<TAB>MAX<TAB>REASON\n", FILENAME, FNR
		next
	}
	ne++
	eline[ne] = FNR
	esuite[ne] = glob2re($1); ekern[ne] = $2; emax[ne] = $3; ereason[ne] = glob2re($4)
	next
}
/^RESULT [^ ]+ [0-9]+ [0-9]+( [0-9]+)?$/ {
	split($0, w, " ")
	s = w[2]
	if (!(s in ran)) order[++nres] = s
	ran[s] += w[3] + w[4]
	skipped[s] += (5 in w) ? w[5] : 0
	delete w
	next
}
/^SKIPPED / {
	line = substr($0, 9)
	p = index(line, ": ")
	if (p == 0) { printf "FAIL\t%s: a SKIPPED line without a reason: %s\n", name, $0; next }
	s = substr(line, 1, p - 1); why = substr(line, p + 2)
	said[s] = 1
	c = 1
	if (match(why, /\([0-9]+ checks\)/))
		c = substr(why, RSTART + 1, RLENGTH - 9) + 0
	accounted[s] += c
	for (i = 1; i <= ne; i++)
		if (s ~ esuite[i] && why ~ ereason[i] && holds(ekern[i])) break
	if (i > ne) {
		printf "FAIL\t%s: a skip tests/skips does not declare (%s): %s: %s\n", name, feats, s, why
		next
	}
	if (!((s, i) in cnt)) uorder[++nused] = s SUBSEP i
	cnt[s, i] += c
	printf "SKIP\t%s: %s: %s\n", name, s, why
}
END {
	for (k = 1; k <= nused; k++) {
		split(uorder[k], si, SUBSEP)
		if (cnt[uorder[k]] > emax[si[2]])
			printf "FAIL\t%s: suite %s skipped %d checks for a reason tests/skips allows %d (its line %d)\n", name, si[1], cnt[uorder[k]], emax[si[2]], eline[si[2]]
	}
	for (k = 1; k <= nres; k++) {
		s = order[k]
		if (ran[s] == 0 && skipped[s] == 0)
			printf "FAIL\t%s: suite %s ran nothing (RESULT %s 0 0)\n", name, s, s
		if (skipped[s] == 0) continue
		if (!(s in said))
			printf "FAIL\t%s: suite %s skipped %d checks without saying why\n", name, s, skipped[s]
		else if (skipped[s] > accounted[s])
			printf "FAIL\t%s: suite %s skipped %d checks, its SKIPPED lines account for %d\n", name, s, skipped[s], accounted[s]
	}
}
