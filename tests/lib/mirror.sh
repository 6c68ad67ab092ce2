# shellcheck shell=sh
# The host's Debian mirror, for the suites that debootstrap a system
# (tests/deb, tests/system).  Source it.
# debian_mirror: prints $TF_DEB_MIRROR if set, else the first "deb" URI
#   (not a -security suite) of /etc/apt/sources.list.d/debian.sources, else
#   of /etc/apt/sources.list, else Debian's own address.
# HOST_SOURCES: the deb822 file it reads (copied into the systems made).
HOST_SOURCES=/etc/apt/sources.list.d/debian.sources
debian_mirror() {
	_dm=
	if [ -f "$HOST_SOURCES" ]; then
		_dm=$(awk '
			/^[ \t]*$/ { if (deb && uri != "" && !done) { print uri; done = 1 } deb = 0; uri = ""; next }
			/^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			/^URIs:/ { uri = $2 }
			/^Suites:/ { if ($0 ~ /-security/) deb = 0 }
			END { if (deb && uri != "" && !done) print uri }' "$HOST_SOURCES")
	fi
	if [ -z "$_dm" ] && [ -f /etc/apt/sources.list ]; then
		_dm=$(awk '$1 == "deb" && $3 !~ /security/ { print $2; exit }' /etc/apt/sources.list)
	fi
	echo "${TF_DEB_MIRROR:-${_dm:-http://deb.debian.org/debian}}"
}
