# shellcheck shell=sh
# Reading audisp-trusted-for's text report in shell tests (POSIX sh; source it).
# report_rows TITLE < REPORT: the rows of table TITLE as "field5 field6
#   field1", sorted: for the Reason Summary Report, "API reason count".
report_rows() {
	awk -v t="$1" '$0 == t { s = 1; next } s && /^=+$/ { n++; next }
		s && n == 2 && /^[0-9]+ / { print $5, $6, $1; next }
		s && n == 2 { exit }' | sort
}
