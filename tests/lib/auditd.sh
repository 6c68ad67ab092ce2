# shellcheck shell=sh
# A private auditd for tests (POSIX sh; source it after tests/lib/wait.sh).
# auditd_conf DIR LOG_FORMAT [LINE...]: DIR/auditd.conf (mode 0640) for an
#   auditd with its logs in DIR/log and its plugins in DIR/plugins.d that
#   never stops or blocks for disk space; each LINE ("key = value") is
#   added as it is.
# auditd_start DIR SECONDS: auditd -n -c DIR in the background (output in
#   DIR/auditd.out), pid in AUDITD_PID; returns 0 once the kernel has it as
#   its audit daemon, 1 when it ended or SECONDS passed first.
# auditd_registered: the kernel's audit daemon is $AUDITD_PID.
# auditd_kill: SIGTERM to $AUDITD_PID when set (for fx_at_exit).
AUDITD_PID=
auditd_conf() {
	_ac_dir=$1 _ac_fmt=$2
	shift 2
	mkdir -p "$_ac_dir/plugins.d" "$_ac_dir/log" || return 1
	{
		printf '%s\n' "write_logs = yes" \
			"log_file = $_ac_dir/log/audit.log" \
			"log_format = $_ac_fmt" \
			"space_left = 2" "space_left_action = IGNORE" \
			"admin_space_left = 1" "admin_space_left_action = IGNORE" \
			"disk_full_action = IGNORE" "disk_error_action = IGNORE" \
			"plugin_dir = $_ac_dir/plugins.d"
		[ $# -eq 0 ] || printf '%s\n' "$@"
	} > "$_ac_dir/auditd.conf" && chmod 0640 "$_ac_dir/auditd.conf"
}
auditd_registered() {
	[ "$(auditctl -s 2>/dev/null | sed -n 's/^pid //p')" = "$AUDITD_PID" ]
}
auditd_kill() { [ -z "$AUDITD_PID" ] || kill "$AUDITD_PID" 2>/dev/null; }
auditd__up() { auditd_registered || ! kill -0 "$AUDITD_PID" 2>/dev/null; }
auditd_start() {
	auditd -n -c "$1" > "$1/auditd.out" 2>&1 &
	AUDITD_PID=$!
	wait_for "$2" auditd__up
	auditd_registered
}
# The plugin without auditd, fed as auditd's dispatcher feeds it
# (format = string): $BIN is audisp-trusted-for.
# plugin_start DIR CONF: $BIN -c CONF reading the fifo DIR/in (made when
#   missing), its stderr added to DIR/plugin.err, pid in PID; fd 3 of this
#   shell writes to its stdin.
# plugin_stop: SIGTERM (the plugin flushes and saves), wait, close fd 3;
#   returns the plugin's exit status.
PID=
plugin_start() {
	[ -p "$1/in" ] || mkfifo "$1/in" || return 1
	"$BIN" -c "$2" < "$1/in" 2>> "$1/plugin.err" &
	PID=$!
	exec 3> "$1/in"
}
plugin_stop() {
	kill -TERM "$PID"
	wait "$PID"
	_ps_rc=$?
	PID=
	exec 3>&-
	return $_ps_rc
}
