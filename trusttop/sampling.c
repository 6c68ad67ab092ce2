// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trusttop: loading the BPF programs, the ring buffer of denials, the
 * counting maps read into the row tables, and the self-profile
 * (sampling.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "trustedfor.h"
#include "backend.h"
#include "sampling.h"
#include "trusttop.skel.h"

struct tt_sampler {
	struct tt_app *app;
	struct trusttop_bpf *skel;
	struct ring_buffer *rb;
	struct tt_names exe_names; /* read from the names map once each */
	double last;		   /* CLOCK_MONOTONIC of the last tick */
	double cpu;		   /* own CPU seconds at the last tick */
	uint64_t bpf_ns, bpf_cnt;  /* BPF run time and runs at the last tick */
	/*
	 * The per-interpreter rows of the last walk of the stats map, each
	 * with its slot in counts, for the reads until a slot is given out:
	 * see read_interp(). known_ok: that walk saw every slot given out
	 * before it (a key's, or counted in slots_unused); known_next: the
	 * slots given out then.
	 */
	struct tt_known_row {
		struct tt_key key;
		__u32 slot;
	} *known;
	size_t nknown, known_cap;
	__u32 known_next;
	bool known_ok;
};

double tt_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double tt_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct tt_sampler *tt_sampler_open(struct tt_app *a, unsigned int progs,
				   bool per_process, char *err, size_t errsz)
{
	struct tt_sampler *s = calloc(1, sizeof(*s));
	struct trusttop_bpf *skel;
	const char *stage;
	int e;

	if (!s) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	skel = trusttop_bpf__open();
	if (!skel) {
		snprintf(err, errsz, "cannot open the BPF object: %s", strerror(errno));
		free(s);
		return NULL;
	}
	struct bpf_program *const set[TT_NPROGS] = {
		skel->progs.tf_verdict_btf, skel->progs.tf_verdict_tp,
		skel->progs.ec_verdict_btf, skel->progs.ec_verdict_tp,
		skel->progs.execveat_exit
	};

	tt_backend_autoload(set, progs);
	skel->rodata->per_process = per_process;
	skel->rodata->self_tgid = (__u32)getpid();
	e = trusttop_bpf__load(skel);
	stage = "load";
	if (!e) {
		e = trusttop_bpf__attach(skel);
		stage = "attach";
	}
	if (e) {
		snprintf(err, errsz, "cannot %s the BPF programs (%s): %s", stage,
			 tt_flavour_of(progs)->programs, strerror(-e));
		trusttop_bpf__destroy(skel);
		free(s);
		return NULL;
	}
	s->app = a;
	s->skel = skel;
	tt_names_init(&s->exe_names);
	return s;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct tt_app *a = ctx;
	const struct tt_event *e = data;
	struct tt_recent *r;
	struct tt_key k = { 0 };
	struct tt_row *row;

	if (size < sizeof(*e))
		return 0;
	a->recent_seq++;
	r = &a->recent[(a->recent_seq - 1) % TT_RECENT];
	r->ev = *e;
	r->seq = a->recent_seq;
	r->wall = tt_wall_now();
	tt_event_path(e, r->path, sizeof(r->path));
	tt_shown_add(a, r);
	if (!(e->flags & TT_EV_DENIED))
		return 0;
	/* The rows of the caller, found through the tables' hash index. */
	k.uid = e->uid;
	k.api = e->source;
	memcpy(k.exe, e->exe, TT_EXE_LEN);
	memcpy(k.comm, e->comm, TT_COMM_LEN);
	row = tt_table_get(&a->interp, &k);
	if (row)
		snprintf(row->last_file, sizeof(row->last_file), "%s", r->path);
	k.tgid = e->tgid;
	row = tt_table_get(&a->procs, &k);
	if (row)
		snprintf(row->last_file, sizeof(row->last_file), "%s", r->path);
	return 0;
}

/* trusttop's own CPU seconds so far. */
static double self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Estimated BPF run time so far: the sampled runs' mean times all runs.
 * Each CPU's value in cpu_state starts with its struct tt_prof; the rest
 * is the programs' own (a per-CPU value is 8-byte aligned per CPU).
 * 0, or -errno (the map could not be read: a real error, the array always
 * has its one entry).
 */
static int bpf_runtime(struct trusttop_bpf *skel, uint64_t *ns, uint64_t *cnt)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t stride = (bpf_map__value_size(skel->maps.cpu_state) + 7) & ~(size_t)7;
	uint64_t runs = 0, sampled = 0, sns = 0;
	unsigned char *v;
	__u32 zero = 0;

	*ns = *cnt = 0;
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	if (stride < sizeof(struct tt_prof))
		return -EINVAL;
	v = calloc(ncpu, stride);
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.cpu_state), &zero, v)) {
		int e = -errno;

		free(v);
		return e;
	}
	for (int i = 0; i < ncpu; i++) {
		struct tt_prof p;

		memcpy(&p, v + (size_t)i * stride, sizeof(p));
		runs += p.runs;
		sampled += p.sampled;
		sns += p.ns;
	}
	free(v);
	*cnt = runs;
	*ns = sampled ? (uint64_t)((double)sns / (double)sampled * (double)runs) : 0;
	return 0;
}

int tt_sampler_start(struct tt_sampler *s, char *err, size_t errsz)
{
	int e;

	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_event,
				 s->app, NULL);
	if (!s->rb) {
		snprintf(err, errsz, "cannot set up the ring buffer: %s",
			 strerror(errno));
		return -1;
	}
	s->last = tt_mono_now();
	s->cpu = self_cpu();
	e = bpf_runtime(s->skel, &s->bpf_ns, &s->bpf_cnt);
	if (e) {
		snprintf(err, errsz, "cannot read the BPF map cpu_state: %s",
			 strerror(-e));
		return -1;
	}
	return 0;
}

int tt_sampler_fd(struct tt_sampler *s)
{
	return ring_buffer__epoll_fd(s->rb);
}

int tt_sampler_poll(struct tt_sampler *s, int timeout_ms)
{
	return ring_buffer__poll(s->rb, timeout_ms);
}

void tt_sampler_consume(struct tt_sampler *s)
{
	ring_buffer__consume(s->rb);
}

/* The name of @id: known, else from the names map (written by the BPF side
 * before the counting entry), else "?" (not there: names map full, see
 * names_full). NULL with -errno in *@err: out of memory, or the map read
 * failed otherwise.
 */
static const char *exe_name(struct tt_sampler *s, const struct tt_exe_id *id,
			    int *err)
{
	const char *name = tt_names_find(&s->exe_names, id);
	struct tt_exe_name n;

	if (name)
		return name;
	if (bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.names), id, &n)) {
		if (errno == ENOENT)
			return "?";
		*err = -errno;
		return NULL;
	}
	if (tt_names_add(&s->exe_names, id, n.name)) {
		*err = -ENOMEM;
		return NULL;
	}
	return tt_names_find(&s->exe_names, id);
}

/* The counts of map entry @key: the value of @fd, or with @counts_fd >= 0
 * (stats) the slot of that array the value names (in *@slot). 1 when read,
 * 0 when the entry went away meanwhile (LRU eviction), -errno on error.
 */
static int read_entry(int fd, int counts_fd, const struct tt_bkey *key,
		      struct tt_counts *c, __u32 *slot)
{
	if (counts_fd < 0 ? bpf_map_lookup_elem(fd, key, c) :
	    bpf_map_lookup_elem(fd, key, slot) ||
	    bpf_map_lookup_elem(counts_fd, slot, c))
		return errno == ENOENT ? 0 : -errno;
	return 1;
}

/* Remember row @k at @slot for read_known(); false when out of memory. */
static bool remember(struct tt_sampler *s, const struct tt_key *k, __u32 slot)
{
	if (s->nknown == s->known_cap) {
		size_t cap = s->known_cap ? 2 * s->known_cap : 64;
		struct tt_known_row *n = realloc(s->known, cap * sizeof(*n));

		if (!n)
			return false;
		s->known = n;
		s->known_cap = cap;
	}
	s->known[s->nknown].key = *k;
	s->known[s->nknown++].slot = slot;
	return true;
}

/* The rows of one BPF map into @t (with @counts: remembered, see
 * read_interp()). 0, or -errno with a message in @err.
 */
static int read_map(struct tt_sampler *s, struct bpf_map *map,
		    struct bpf_map *counts, struct tt_table *t, char *err,
		    size_t errsz)
{
	int fd = bpf_map__fd(map), counts_fd = counts ? bpf_map__fd(counts) : -1;
	struct tt_bkey key, next;
	struct tt_bkey *prev = NULL;
	struct tt_counts c;
	__u32 slot = 0;
	int e = 0;

	tt_table_begin(t);
	for (;;) {
		if (bpf_map_get_next_key(fd, prev, &next)) {
			if (errno != ENOENT) /* ENOENT: no more keys */
				e = -errno;
			break;
		}
		e = read_entry(fd, counts_fd, &next, &c, &slot);
		if (e < 0)
			break;
		if (e) {
			struct tt_key k = { .uid = next.uid, .tgid = next.tgid,
					    .api = next.api };
			const char *name = exe_name(s, &next.exe, &e);

			if (!name)
				break;
			c.checks = c.allowed + c.denied; /* see trusttop.h */
			snprintf(k.exe, sizeof(k.exe), "%s", name);
			memcpy(k.comm, next.comm, sizeof(k.comm));
			if (!tt_table_add(t, &k, &c) ||
			    (counts && !remember(s, &k, slot))) {
				e = -ENOMEM;
				break;
			}
		}
		e = 0;
		key = next;
		prev = &key;
	}
	if (e)
		snprintf(err, errsz, "cannot read the BPF map %s: %s",
			 bpf_map__name(map), strerror(-e));
	return e;
}

/* The remembered rows' counts into @t, by slot. 0, or -errno (@err). */
static int read_known(struct tt_sampler *s, struct tt_table *t, char *err,
		      size_t errsz)
{
	int fd = bpf_map__fd(s->skel->maps.counts);

	tt_table_begin(t);
	for (size_t i = 0; i < s->nknown; i++) {
		struct tt_counts c;

		if (bpf_map_lookup_elem(fd, &s->known[i].slot, &c)) {
			int e = -errno;

			snprintf(err, errsz, "cannot read the BPF map counts: %s",
				 strerror(-e));
			return e;
		}
		c.checks = c.allowed + c.denied; /* see trusttop.h */
		if (!tt_table_add(t, &s->known[i].key, &c)) {
			snprintf(err, errsz, "cannot read the BPF map counts: %s",
				 strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * The per-interpreter rows into the app's table. A walk of the stats hash
 * visits every one of its TT_ROWS buckets, however few rows there are: it
 * was most of an idle trusttop's CPU (about 190 us a tick on the host, and
 * under TCG some 55 times as much). Its entries are never deleted and a
 * key keeps its slot, so while no slot has been given out since a walk
 * that saw them all, the rows are the same and their counts are read by
 * slot. A walk saw them all when each slot given out before it is a row's
 * or was counted unused: slots_unused is read before next_slot, so it
 * counts no slot beyond; a slot whose key was not yet in the map makes
 * the next tick walk again.
 */
static int read_interp(struct tt_sampler *s, char *err, size_t errsz)
{
	struct trusttop_bpf *skel = s->skel;
	__u32 unused = __atomic_load_n(&skel->bss->slots_unused, __ATOMIC_ACQUIRE);
	__u32 given = __atomic_load_n(&skel->bss->next_slot, __ATOMIC_ACQUIRE);
	__u32 lim = given < TT_SLOTS ? given : TT_SLOTS;
	size_t seen = 0;
	int e;

	if (s->known_ok && given == s->known_next)
		return read_known(s, &s->app->interp, err, errsz);
	s->nknown = 0;
	s->known_ok = false;
	e = read_map(s, skel->maps.stats, skel->maps.counts, &s->app->interp,
		     err, errsz);
	if (e)
		return e;
	for (size_t i = 0; i < s->nknown; i++)
		seen += s->known[i].slot < lim;
	s->known_ok = seen + unused == lim;
	s->known_next = given;
	return 0;
}

int tt_sampler_tick(struct tt_sampler *s, char *err, size_t errsz)
{
	struct tt_app *a = s->app;
	struct trusttop_bpf *skel = s->skel;
	double t = tt_mono_now(), cpu = self_cpu();
	uint64_t ns, cnt;
	int e;

	ring_buffer__consume(s->rb);
	e = read_interp(s, err, errsz);
	if (!e && a->per_process)
		e = read_map(s, skel->maps.pstats, NULL, &a->procs, err, errsz);
	if (e)
		return e;
	a->elapsed = t - s->last;
	s->last = t;
	a->now = tt_wall_now();
	tt_table_tick(&a->interp, a->elapsed);
	tt_table_tick(&a->procs, a->elapsed);
	tt_table_totals(&a->interp, 0, &a->total, &a->total_delta);
	for (unsigned int api = 1; api < 3; api++)
		tt_table_totals(&a->interp, api, &a->api_total[api],
				&a->api_delta[api]);
	a->rb_drops = skel->bss->rb_drops;
	a->map_full = skel->bss->map_full;
	a->pmap_full = skel->bss->pmap_full;
	e = bpf_runtime(skel, &ns, &cnt);
	if (e) {
		snprintf(err, errsz, "cannot read the BPF map cpu_state: %s",
			 strerror(-e));
		return e;
	}
	if (a->elapsed > 0) {
		a->self_cpu_pct = 100 * (cpu - s->cpu) / a->elapsed;
		a->bpf_cpu_pct = 100 * (double)(ns - s->bpf_ns) / 1e9 / a->elapsed;
	}
	a->bpf_runs = cnt;
	a->bpf_ns_per_event = cnt > s->bpf_cnt ?
		(double)(ns - s->bpf_ns) / (double)(cnt - s->bpf_cnt) : 0;
	s->cpu = cpu;
	s->bpf_ns = ns;
	s->bpf_cnt = cnt;
	a->ticks++;
	if (a->policy_note == NULL && tf_policy_read(&a->policy))
		a->policy = -1;
	return 0;
}

void tt_sampler_close(struct tt_sampler *s)
{
	if (!s)
		return;
	ring_buffer__free(s->rb);
	trusttop_bpf__destroy(s->skel);
	tt_names_free(&s->exe_names);
	free(s->known);
	free(s);
}
