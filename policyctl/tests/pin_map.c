// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tf-pin-map PATH: create a one-entry BPF array map with BTF (so that its
 * bpffs pin can be opened and read, as a regular file) and pin it at PATH
 * on a bpf filesystem: a corpus file for tests/vm/cases/policyctl-proof.sh
 * (the kernel's verdicts on it come from tests/probe).
 * Exit status: 0, 2 on a usage error or when the map cannot be pinned.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/btf.h>

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

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: tf-pin-map PATH   (PATH on a bpf filesystem)\n");
		return 2;
	}
	if (pin_map(argv[1]) < 0) {
		fprintf(stderr, "tf-pin-map: cannot pin a BPF map at %s: %s\n",
			argv[1], strerror(errno));
		return 2;
	}
	return 0;
}
