# shellcheck shell=sh
# A private auditd for tests (POSIX sh; source it after tests/lib/wait.sh).
# auditd_conf DIR LOG_FORMAT [LINE...]: DIR/auditd.conf (mode 0640) for an
#   auditd with its logs in DIR/log and its plugins in DIR/plugins.d that
#   never stops or blocks for disk space; each LINE ("key = value") is
#   added as it is.
# auditd_start DIR SECONDS: auditd -n -c DIR in the background (output in
#   DIR/auditd.out), pid in AUDITD_PID; returns 0 once the kernel has it as
#   its audit daemon, 1 when it ended or SECONDS passed first.
# auditd_plugin DIR BIN CONF: audisp-trusted-for (BIN -c CONF) in DIR's
#   plugins.d, as the package installs it (format = string, always).
# auditd_registered: the kernel's audit daemon is $AUDITD_PID.
# auditd_kill: SIGTERM to $AUDITD_PID when set (for fx_at_exit).
# auditd_marker_wait LOGDIR SECONDS: a record of its own (auditctl -m),
#   and the wait until auditd wrote it in LOGDIR/audit.log*: the kernel
#   sends its records in order, so every record it queued before is there
#   then.  1 when auditctl fails or SECONDS pass first.
AUDITD_PID=
auditd__logged() { cat "$1"/audit.log* 2> /dev/null | grep -aqF "$2"; }
auditd_marker_wait() {
	_amw_m="trustfor marker $$ $(date +%s%N)"
	auditctl -m "$_amw_m" 2> /dev/null &&
		wait_for "$2" auditd__logged "$1" "$_amw_m"
}
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
auditd_plugin() {
	printf '%s\n' "active = yes" "direction = out" "path = $2" "type = always" \
		"args = -c $3" "format = string" > "$1/plugins.d/audisp-trusted-for.conf" &&
		chmod 0640 "$1/plugins.d/audisp-trusted-for.conf"
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
#   shell writes to its stdin.  Returns once the plugin catches SIGHUP,
#   SIGUSR1 and SIGTERM (before, any of them would kill it); 1 when it
#   does not within 10 s.
# plugin_feed DIR CONF LOG: $BIN -c CONF fed LOG once through the fifo
#   DIR/in (made when missing), its stderr added to DIR/plugin.err; at EOF
#   it flushes, saves and exits: returns its exit status.
# plugin_stop: SIGTERM (the plugin reads what is left on its stdin,
#   flushes and saves), wait, close fd 3; returns the plugin's exit status.
# plugin_hup DIR: SIGHUP, and wait (10 s) until the plugin logged in
#   DIR/plugin.err that it reloaded its configuration or kept the running
#   one; 1 when it did not.
# plugin_usr1 STATE: SIGUSR1, and wait (10 s) until the plugin saved its
#   state file STATE again (another inode and change time than before:
#   its atomic rename); 1 when it did not.
# state_denials STATE: the denials in the plugin's saved state STATE (its
#   report's "Number of denials"; empty when there is no state).
# plugin_save_until STATE N SECONDS: SIGUSR1 to $PID, one at a time, each
#   waited for (plugin_usr1), until STATE holds N denials; 1 when it does
#   not within SECONDS.  No save is left pending when it returns.
# Wait for these, not for a fixed time: a loaded machine outlasts any sleep.
PID=
plugin_start() {
	[ -p "$1/in" ] || mkfifo "$1/in" || return 1
	"$BIN" -c "$2" < "$1/in" 2>> "$1/plugin.err" &
	PID=$!
	exec 3> "$1/in"
	wait_for 10 plugin__handles "$PID"
}
# plugin__handles PID: SigCgt holds SIGHUP (bit 0), SIGUSR1 (bit 9) and
# SIGTERM (bit 14): 0x4201
plugin__handles() {
	_pc_m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null)
	[ -n "$_pc_m" ] && [ $((0x$_pc_m & 0x4201)) = $((0x4201)) ]
}
plugin_feed() {
	[ -p "$1/in" ] || mkfifo "$1/in" || return 1
	"$BIN" -c "$2" < "$1/in" 2>> "$1/plugin.err" &
	PID=$!
	cat "$3" > "$1/in"
	wait "$PID"
	_pf_rc=$?
	PID=
	return $_pf_rc
}
plugin_stop() {
	kill -TERM "$PID"
	wait "$PID"
	_ps_rc=$?
	PID=
	exec 3>&-
	return $_ps_rc
}
plugin__reloads() {
	grep -c 'reloaded \|; keeping the running configuration' "$1/plugin.err" 2> /dev/null
}
plugin__reloaded() { [ "$(plugin__reloads "$1")" -gt "$2" ]; }
plugin_hup() {
	_ph_n=$(plugin__reloads "$1")
	kill -HUP "$PID"
	wait_for 10 plugin__reloaded "$1" "${_ph_n:-0}"
}
plugin__stamp() { stat -c '%i %z' "$1" 2> /dev/null; }
plugin__saved() { [ "$(plugin__stamp "$1")" != "$2" ]; }
plugin_usr1() {
	_pu_s=$(plugin__stamp "$1")
	kill -USR1 "$PID"
	wait_for 10 plugin__saved "$1" "$_pu_s"
}
state_denials() {
	"$BIN" report --state "$1" 2> /dev/null | sed -n 's/^Number of denials: //p'
}
plugin_save_until() {
	_psu_end=$(($(date +%s) + $3))
	until [ "$(state_denials "$1")" = "$2" ]; do
		[ "$(date +%s)" -lt "$_psu_end" ] || return 1
		plugin_usr1 "$1" || sleep "${WAIT_STEP:-0.1}"
	done
}
