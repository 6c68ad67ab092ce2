# shellcheck shell=sh
# CPUs for tests (POSIX sh; source it).
# allowed_cpus: the CPUs this process may run on (its affinity, from
#   Cpus_allowed_list in /proc/self/status, e.g. "0-2,5"), one number a
#   line; the machine's CPUs 0..nproc-1 need not all be allowed (taskset,
#   cgroup cpusets), and pinning a worker to one that is not fails.
allowed_cpus() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status |
		tr ',' '\n' |
		awk -F- 'NF { hi = (NF > 1) ? $2 : $1; for (c = $1; c <= hi; c++) print c }'
}
