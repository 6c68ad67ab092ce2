// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tf-probe: ask the running kernel, as a given user, whether files may be
 * executed: the ground truth tests/vm/cases/policyctl-proof.sh compares
 * policyctl's predictions with.
 *
 *   tf-probe [--as UID] [--backend trusted_for|execve_check] [--hold] FILE...
 *   tf-probe --pin-map PATH
 *
 * Every FILE is opened read-only (O_NONBLOCK, symlinks followed) by the
 * caller (root) first; then --as UID drops to that uid, its primary gid and
 * supplementary groups from the user/group databases (setgroups, setresgid,
 * setresuid: every capability is lost), and trusted_for(2) is called on
 * each fd, so the verdict is the subject's even for files it could not open
 * itself. uid 0 keeps its capabilities.
 * The pseudo names fd:pipe, fd:memfd and fd:socket are a pipe's read end, a
 * memfd and a unix socket, created after the drop (owned by the subject).
 * One line per FILE: "allow FILE", "deny FILE" (EACCES), or
 * "error ERRNO FILE" (cannot open, or another error from the kernel).
 * --backend execve_check asks execveat(fd, "", AT_EMPTY_PATH |
 * AT_EXECVE_CHECK) instead, the mode of the execve_check half of the
 * proof: that refusal has one more kind, "busy FILE" (ETXTBSY: the file is
 * open for writing), which the model predicts as reason write_busy. As
 * AT_EMPTY_PATH re-opens the fd's file for execution with the subject's
 * credentials, the verdict is the subject's there too.
 * For fd: names the line ends with " /proc/PID/fd/N"; with --hold the probe
 * then keeps those fds open until its standard input is closed, so that
 * `policyctl explain` can look at them.
 * --pin-map PATH creates a one-entry BPF array map with BTF (so that its
 * bpffs pin can be opened and read, as a regular file) and pins it at PATH
 * on a bpf filesystem: a corpus file for the proof.
 * Exit status: 0, or 2 on a usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/btf.h>

#include "trustedfor.h"

static int drop_to(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	gid_t groups[256];
	int n = 256;
	gid_t gid = pw ? pw->pw_gid : (gid_t)uid;

	if (pw) {
		if (getgrouplist(pw->pw_name, gid, groups, &n) < 0)
			return -1;
	} else {
		n = 0;
	}
	if (setgroups((size_t)n, groups) < 0 || setresgid(gid, gid, gid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		return -1;
	return 0;
}

/* BTF with one type, "int" (id 1): the array map's key and value */
static int pin_map(const char *path)
{
	static const char strs[] = "\0int";
	struct {
		struct btf_header hdr;
		struct btf_type t;
		__u32 enc;
		char strs[sizeof(strs)];
	} __attribute__((packed)) btf = {
		.hdr = { .magic = BTF_MAGIC, .version = BTF_VERSION,
			 .hdr_len = sizeof(struct btf_header), .type_off = 0,
			 .type_len = sizeof(struct btf_type) + sizeof(__u32),
			 .str_off = sizeof(struct btf_type) + sizeof(__u32),
			 .str_len = sizeof(strs) },
		.t = { .name_off = 1, .info = BTF_KIND_INT << 24, .size = 4 },
		.enc = BTF_INT_SIGNED << 24 | 32,
	};
	union bpf_attr a;
	int btf_fd, map_fd;

	memcpy(btf.strs, strs, sizeof(strs));
	memset(&a, 0, sizeof(a));
	a.btf = (__u64)(unsigned long)&btf;
	a.btf_size = sizeof(btf);
	btf_fd = (int)syscall(SYS_bpf, BPF_BTF_LOAD, &a, sizeof(a));
	if (btf_fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 1;
	a.btf_fd = (__u32)btf_fd;
	a.btf_key_type_id = 1;
	a.btf_value_type_id = 1;
	memcpy(a.map_name, "pcproof", 8);
	map_fd = (int)syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof(a));
	if (map_fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.pathname = (__u64)(unsigned long)path;
	a.bpf_fd = (__u32)map_fd;
	return (int)syscall(SYS_bpf, BPF_OBJ_PIN, &a, sizeof(a));
}

static int make_fd(const char *kind, int *extra)
{
	int p[2];

	*extra = -1;
	if (!strcmp(kind, "fd:pipe")) {
		if (pipe(p) < 0)
			return -1;
		*extra = p[1];
		return p[0];
	}
	if (!strcmp(kind, "fd:memfd"))
		return memfd_create("tf-probe", 0);
	if (!strcmp(kind, "fd:socket"))
		return socket(AF_UNIX, SOCK_STREAM, 0);
	errno = EINVAL;
	return -1;
}

int main(int argc, char **argv)
{
	int i = 1, backend = 0, hold = 0, as = -1;
	char buf[64];

	if (argc == 3 && !strcmp(argv[1], "--pin-map")) {
		if (pin_map(argv[2]) < 0) {
			fprintf(stderr, "tf-probe: cannot pin a BPF map at %s: %s\n",
				argv[2], strerror(errno));
			return 2;
		}
		return 0;
	}
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--as") && i + 1 < argc) {
			as = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
			backend = !strcmp(argv[++i], "execve_check");
		} else if (!strcmp(argv[i], "--hold")) {
			hold = 1;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "usage: tf-probe [--as UID] [--backend trusted_for|execve_check] [--hold] FILE...\n");
			return 2;
		}
	}
	int n = argc - i;
	int *fds = calloc((size_t)n + 1, sizeof(int));
	int *errs = calloc((size_t)n + 1, sizeof(int));

	if (!fds || !errs)
		return 2;
	for (int k = 0; k < n; k++) {
		fds[k] = -1;
		if (strncmp(argv[i + k], "fd:", 3) == 0)
			continue;
		fds[k] = open(argv[i + k], O_RDONLY | O_NONBLOCK | O_NOCTTY);
		errs[k] = fds[k] < 0 ? errno : 0;
	}
	if (as >= 0 && drop_to((uid_t)as) < 0) {
		fprintf(stderr, "tf-probe: cannot become uid %d: %s\n", as, strerror(errno));
		return 2;
	}
	for (int k = 0; k < n; k++) {
		const char *name = argv[i + k];
		int extra = -1, r;

		if (strncmp(name, "fd:", 3) == 0) {
			fds[k] = make_fd(name, &extra);
			errs[k] = fds[k] < 0 ? errno : 0;
		}
		if (fds[k] < 0) {
			printf("error %s %s\n", strerrorname_np(errs[k]), name);
			continue;
		}
		r = backend ? tf_execve_check(fds[k])
			    : tf_trusted_for(fds[k], TF_USAGE_EXECUTION, 0);
		if (r == 0)
			printf("allow %s", name);
		else if (errno == EACCES)
			printf("deny %s", name);
		else if (backend && errno == ETXTBSY)
			printf("busy %s", name);
		else
			printf("error %s %s", strerrorname_np(errno), name);
		if (strncmp(name, "fd:", 3) == 0)
			printf(" /proc/%d/fd/%d", (int)getpid(), fds[k]);
		putchar('\n');
		(void)extra; /* a pipe's write end stays open with the read end */
	}
	fflush(stdout);
	if (hold)
		while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
			;
	free(fds);
	free(errs);
	return 0;
}
