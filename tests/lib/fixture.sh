# shellcheck shell=sh
# What a test changes on the machine, put back at exit (POSIX sh; source
# it).  One EXIT trap runs every registered undo, the last registered first;
# INT and TERM exit through it.  A script using this must not set its own
# EXIT trap: it registers its clean-up with fx_at_exit instead.
# fx_at_exit CMD: run the shell command CMD at exit.
# fx_tmpfs DIR OPTIONS NAME: mkdir -p DIR, mount a tmpfs there (mount -o
#   OPTIONS), unmounted (lazily, with what is under it) at exit.
# fx_noexec_tmpfs DIR NAME: the same, mounted noexec (mode 0755).
# fx_tmpdir TEMPLATE: FX_DIR is a new directory (mktemp -d TEMPLATE),
#   removed with what it holds at exit.
# fx_policy_save: fs.trust_policy as it is now comes back at exit; its old
#   value is in FX_POLICY.
FX_UNDO=
FX_POLICY_FILE=/proc/sys/fs/trust_policy
fx__run() {
	_fx_rc=$?
	_fx_undo=$FX_UNDO
	FX_UNDO=
	eval "$_fx_undo"
	return $_fx_rc
}
fx_at_exit() {
	# (each undo runs whatever the others did, set -e or not)
	FX_UNDO="{ $1
} || :
$FX_UNDO"
	trap fx__run EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
# fx_quote WORD: WORD in single quotes, for a command string
fx_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
fx_tmpdir() {
	FX_DIR=$(mktemp -d "$1") || return 1
	fx_at_exit "rm -rf $(fx_quote "$FX_DIR")"
}
fx_tmpfs() {
	mkdir -p "$1" || return 1
	mount -t tmpfs -o "$2" "$3" "$1" || return 1
	fx_at_exit "umount -R -l $(fx_quote "$1") 2>/dev/null"
}
fx_noexec_tmpfs() { fx_tmpfs "$1" noexec,mode=0755 "$2"; }
fx_policy_save() {
	FX_POLICY=$(cat "$FX_POLICY_FILE") || return 1
	fx_at_exit "echo $FX_POLICY > $(fx_quote "$FX_POLICY_FILE")"
}
