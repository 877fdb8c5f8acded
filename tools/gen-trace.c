/*
 * gen-trace.c - write a synthetic perf.data file for testing perf's
 * thread/map bookkeeping (fork, exec, mmap), optionally in the opposite
 * byte order, plus a "truth" file describing the maps a correct perf
 * should end up with.
 *
 *   cc -O2 -Wall -Wextra -o build/gen-trace tools/gen-trace.c
 *
 *   gen-trace [-b|-l] [-d] [-g] SCENARIO OUT.data [TRUTH]
 *
 *   -b   write the whole file big-endian, as a sparc64 perf would
 *   -l   write it little-endian (default: the host's byte order)
 *   -d   samples as from 'perf record --call-graph dwarf': a user call
 *        chain, user registers and user stack in each
 *   -g   pids no process has (above PID_MAX_LIMIT): bigexec's parent,
 *        execchain's processes (see scenario_bigexec(), scenario_execchain())
 *
 *   SCENARIO is one of
 *     report            the layout of the original bug report (bash forking
 *                       emacs-gtk and ls on sparc64), see report_steps[]
 *     machine N M       N synthesized processes with M maps each
 *     execchain N       one process exec'ing N times in a row
 *     bigexec N M       a parent of N maps whose M children (kernel FORK)
 *                       each exec
 *     callchain N       N samples with frame-pointer call chains as from
 *                       'perf record -g', 40 kernel and 22 user entries
 *                       each, of a shell and a child that execs 12 times;
 *                       a kernel map ([kernel.kallsyms]_text) first
 *     branch N          N samples with 32-entry branch stacks as from
 *                       'perf record -b', of a shell and a child that
 *                       execs 8 times; user entries mostly, kernel ones
 *                       in the kernel map
 *     remap N           a process that execs, then maps 64 pages of a file
 *                       N times over, one page a record, as a JIT that
 *                       flips its code pages between writable and
 *                       executable does
 *
 * The file is a "PERFILE2" perf.data file: perf_file_header, one
 * perf_file_attr (perf_event_attr + ids section), one id, the data section
 * and small header features (HOSTNAME, ARCH; BRANCH_STACK for "branch").
 * The layouts are those of tools/perf/util/header.h,
 * tools/lib/perf/include/perf/event.h and include/uapi/linux/perf_event.h
 * (sample fields in the order of PERF_RECORD_SAMPLE there, see
 * ev_sample_full()); no perf header is included: every field is written
 * one by one, at its size, in the chosen byte order, which is exactly what
 * a perf running on a machine of that byte order would write.
 *
 * TRUTH lines (what a correct perf shows at the end of the file):
 *   task PID KIND COMM        KIND: synth-fork, exec or plain
 *   map PID START END PROT NAME   hex START/END (END exclusive), PROT "r-xp"
 * Only tasks that are alive at the end and have a comm are listed (so not
 * pid 1, which only appears as a parent, nor exited tasks).  KIND tells what
 * extra maps a broken perf would show: "synth-fork" for a task synthesized
 * as the child of a parent that had maps (wrongly cloning them gives
 * "inherited" maps), "exec" for a task that exec'd (maps left over from the
 * old image), "plain" otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;

/* ---- perf ABI constants (include/uapi/linux/perf_event.h) ---------------- */

#define PERF_TYPE_SOFTWARE		1
#define PERF_COUNT_SW_CPU_CLOCK		0

#define PERF_SAMPLE_IP			(1u << 0)
#define PERF_SAMPLE_TID			(1u << 1)
#define PERF_SAMPLE_TIME		(1u << 2)
#define PERF_SAMPLE_CPU			(1u << 7)
#define PERF_SAMPLE_PERIOD		(1u << 8)
#define PERF_SAMPLE_CALLCHAIN		(1u << 5)
#define PERF_SAMPLE_REGS_USER		(1u << 12)
#define PERF_SAMPLE_STACK_USER		(1u << 13)
#define PERF_SAMPLE_BRANCH_STACK	(1u << 11)
#define PERF_SAMPLE_REGS_ABI_64		2
#define PERF_CONTEXT_KERNEL		((u64)-128)
#define PERF_CONTEXT_USER		((u64)-512)

/* attr.branch_sample_type bits */
#define PERF_SAMPLE_BRANCH_USER		(1u << 0)
#define PERF_SAMPLE_BRANCH_KERNEL	(1u << 1)
#define PERF_SAMPLE_BRANCH_ANY		(1u << 3)

/* bit numbers of the perf_event_attr flag bitfield (LSB first, as on x86) */
#define ATTR_DISABLED			0
#define ATTR_INHERIT			1
#define ATTR_MMAP			8
#define ATTR_COMM			9
#define ATTR_FREQ			10
#define ATTR_TASK			13
#define ATTR_MMAP_DATA			17
#define ATTR_SAMPLE_ID_ALL		18
#define ATTR_MMAP2			23
#define ATTR_COMM_EXEC			24

/*
 * Attr size written to the file: PERF_ATTR_SIZE_VER7 (up to sig_data).
 * perf refuses attrs bigger than its own struct, and Debian 12's perf 6.1
 * knows VER7 but not VER8 (config3), so stay at 128 bytes.
 */
#define ATTR_SIZE			128

#define PERF_RECORD_COMM		3
#define PERF_RECORD_EXIT		4
#define PERF_RECORD_FORK		7
#define PERF_RECORD_SAMPLE		9
#define PERF_RECORD_MMAP2		10
#define PERF_RECORD_FINISHED_ROUND	68	/* perf's own record type */

#define PERF_RECORD_MISC_KERNEL		(1 << 0)
#define PERF_RECORD_MISC_USER		(2 << 0)
#define PERF_RECORD_MISC_MMAP_DATA	(1 << 13)	/* MMAP2: not executable */
#define PERF_RECORD_MISC_COMM_EXEC	(1 << 13)	/* COMM: due to exec */
#define PERF_RECORD_MISC_FORK_EXEC	(1 << 13)	/* FORK: synthesized */

#define PROT_READ	1
#define PROT_WRITE	2
#define PROT_EXEC	4
#define MAP_SHARED	1
#define MAP_PRIVATE	2

/* ---- perf.data file constants (tools/perf/util/header.h) ---------------- */

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" in LE */
#define HEADER_HOSTNAME		3
#define HEADER_ARCH		6
#define HEADER_BRANCH_STACK	15	/* no data: "every event has -b" */
#define NAME_ALIGN		64	/* string features are padded to this */

/*
 * struct perf_file_header: magic, size, attr_size, then three
 * perf_file_section {offset, size} (attrs, data, event_types) and a 256-bit
 * feature bitmap (4 u64 words on a 64-bit writer): 104 bytes.
 */
#define FILE_HEADER_SIZE	(3 * 8 + 3 * 16 + 256 / 8)
#define FILE_ATTR_SIZE		(ATTR_SIZE + 16)	/* attr + ids section */
#define IDS_OFFSET		(FILE_HEADER_SIZE + FILE_ATTR_SIZE)
#define DATA_OFFSET		(IDS_OFFSET + 8)	/* after our single id */

#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
/*
 * With -d, as 'perf record --call-graph dwarf': a user callchain, the user
 * registers REGS_USER_MASK (x86's BP, SP and IP) and STACK_USER bytes of
 * the user stack in each sample.
 */
#define DWARF_SAMPLE_TYPE	(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
				 PERF_SAMPLE_STACK_USER)
#define REGS_USER_MASK		((1ULL << 6) | (1ULL << 7) | (1ULL << 8))
#define NR_REGS_USER		3
#define STACK_USER		64
#define SAMPLE_FREQ	4000
#define SAMPLE_PERIOD	250000		/* ns between samples at 4 kHz */
#define EVENT_ID	1		/* the id of our one event */

/*
 * "branch": as 'perf record -b' (-j any,u,k), no PERF_SAMPLE_BRANCH_HW_INDEX:
 * a sample's branch stack is nr then nr {from, to, flags}, no hw_idx.
 */
#define BRANCH_SAMPLE_TYPE	(PERF_SAMPLE_BRANCH_ANY | \
				 PERF_SAMPLE_BRANCH_USER | \
				 PERF_SAMPLE_BRANCH_KERNEL)

/*
 * The kernel map of "callchain" and "branch", x86-64 style, as perf record
 * synthesizes it (perf_event__synthesize_kernel_mmap()): a MMAP2 of pid -1,
 * cpumode KERNEL, named "[kernel.kallsyms]_text", pgoff the address of
 * _text.  No build-id: no vmlinux or kallsyms of the recording exists.
 */
#define KERNEL_START		0xffffffff81000000ULL
#define KERNEL_END		0xffffffff83000000ULL
#define KERNEL_MMAP_NAME	"[kernel.kallsyms]_text"

/* ---- byte-order aware record writer ------------------------------------- */

static int big_endian;		/* byte order of the file being written */
static int dwarf;		/* -d: samples as with --call-graph dwarf */
static int gone;		/* -g: pids no process has (bigexec, execchain) */
static u64 sample_type = SAMPLE_TYPE;	/* attr.sample_type, set by main() */
static FILE *out;
static u64 data_size;		/* bytes written to the data section */
static u64 now = 1000000000ULL;	/* timestamp of the last event (ns) */
static unsigned events_in_round;

/* One record is assembled here, then written in one go. */
struct rec {
	unsigned char b[65536];
	size_t n;
};

static void put(struct rec *r, u64 v, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		int shift = big_endian ? 8 * (bytes - 1 - i) : 8 * i;

		r->b[r->n++] = (unsigned char)(v >> shift);
	}
}

static void put16(struct rec *r, u64 v) { put(r, v, 2); }
static void put32(struct rec *r, u64 v) { put(r, v, 4); }
static void put64(struct rec *r, u64 v) { put(r, v, 8); }

/* A NUL-terminated string, zero padded to a multiple of @align bytes. */
static void put_str(struct rec *r, const char *s, size_t align)
{
	size_t len = strlen(s) + 1;
	size_t padded = (len + align - 1) / align * align;

	memcpy(r->b + r->n, s, len);
	memset(r->b + r->n + len, 0, padded - len);
	r->n += padded;
}

static void write_rec(struct rec *r)
{
	if (fwrite(r->b, 1, r->n, out) != r->n) {
		perror("gen-trace: write");
		exit(1);
	}
}

/* struct perf_event_header: u32 type, u16 misc, u16 size (patched later). */
static void event_begin(struct rec *r, u32 type, u16 misc)
{
	r->n = 0;
	put32(r, type);
	put16(r, misc);
	put16(r, 0);
}

/*
 * The sample_id trailer of every non-sample event (attr.sample_id_all):
 * the TID, TIME and CPU parts of SAMPLE_TYPE, in sample order.
 */
static void put_sample_id(struct rec *r, u32 pid, u32 tid)
{
	put32(r, pid);
	put32(r, tid);
	put64(r, now);
	put32(r, 0);		/* cpu */
	put32(r, 0);		/* reserved */
}

/* Patch the record's size into its header and write it out. */
static void emit(struct rec *r)
{
	size_t n = r->n;

	r->n = 6;
	put16(r, n);
	r->n = n;
	write_rec(r);
	data_size += n;
}

static void event_end(struct rec *r)
{
	emit(r);

	/*
	 * Close a round now and then, like perf record does after each pass
	 * over its ring buffers, so that perf's ordered-events queue stays
	 * short on big files.
	 */
	if (++events_in_round == 1024) {
		event_begin(r, PERF_RECORD_FINISHED_ROUND, 0);
		emit(r);
		events_in_round = 0;
	}
}

/* ---- the truth model: what a correct perf should end up with ------------ */

enum kind { PLAIN, SYNTH_FORK, EXEC };
static const char *const kind_name[] = { "plain", "synth-fork", "exec" };

struct map {
	u64 start, end;
	char prot[5];
	char *name;
};

struct task {
	int pid;
	enum kind kind;
	int has_comm, exited;
	char comm[16];
	struct map *maps;
	size_t nr, alloc;
};

static struct task **tasks;	/* indexed by pid */
static size_t nr_tasks;

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		fprintf(stderr, "gen-trace: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

static struct task *task(int pid)
{
	if ((size_t)pid >= nr_tasks) {
		size_t n = (size_t)pid + 1024;

		tasks = xrealloc(tasks, n * sizeof(*tasks));
		memset(tasks + nr_tasks, 0, (n - nr_tasks) * sizeof(*tasks));
		nr_tasks = n;
	}
	if (!tasks[pid]) {
		tasks[pid] = xrealloc(NULL, sizeof(struct task));
		memset(tasks[pid], 0, sizeof(struct task));
		tasks[pid]->pid = pid;
	}
	return tasks[pid];
}

static void add_map(struct task *t, u64 start, u64 end, const char *prot,
		    const char *name)
{
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 16;
		t->maps = xrealloc(t->maps, t->alloc * sizeof(*t->maps));
	}
	t->maps[t->nr].start = start;
	t->maps[t->nr].end = end;
	snprintf(t->maps[t->nr].prot, sizeof(t->maps[t->nr].prot), "%s", prot);
	t->maps[t->nr].name = xstrdup(name);
	t->nr++;
}

static void flush_maps(struct task *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->maps[i].name);
	t->nr = 0;
}

/* mmap() semantics: the new map replaces whatever it overlaps. */
static void model_mmap(struct task *t, u64 start, u64 end, const char *prot,
		       const char *name)
{
	for (size_t i = 0; i < t->nr; i++) {
		struct map *m = &t->maps[i];

		if (m->end <= start || m->start >= end)
			continue;
		if (m->start < start && m->end > end) {	/* split in two */
			struct map old = *m;

			m->end = start;
			add_map(t, end, old.end, old.prot, old.name);
		} else if (m->start < start) {
			m->end = start;
		} else if (m->end > end) {
			m->start = end;
		} else {				/* fully covered */
			free(m->name);
			*m = t->maps[--t->nr];
			i--;
		}
	}
	add_map(t, start, end, prot, name);
}

static int map_cmp(const void *a, const void *b)
{
	const struct map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void write_truth(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(1);
	}
	for (size_t pid = 0; pid < nr_tasks; pid++) {
		struct task *t = tasks[pid];

		if (!t || !t->has_comm || t->exited)
			continue;
		fprintf(f, "task %d %s %s\n", t->pid, kind_name[t->kind], t->comm);
		qsort(t->maps, t->nr, sizeof(*t->maps), map_cmp);
		for (size_t i = 0; i < t->nr; i++)
			fprintf(f, "map %d %llx %llx %s %s\n", t->pid,
				(unsigned long long)t->maps[i].start,
				(unsigned long long)t->maps[i].end,
				t->maps[i].prot, t->maps[i].name);
	}
	if (fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* ---- events: each one is written to the file and applied to the model --- */

/* PERF_RECORD_FORK/EXIT: u32 pid, ppid, tid, ptid; u64 time. */
static void task_event(u32 type, u16 misc, int pid, int ppid)
{
	struct rec r;

	now += 1000;
	event_begin(&r, type, misc);
	put32(&r, pid);
	put32(&r, ppid);
	put32(&r, pid);		/* tid: single-threaded processes only */
	put32(&r, ppid);	/* ptid */
	put64(&r, now);
	/* the kernel emits FORK from the parent, EXIT from the dying task */
	if (type == PERF_RECORD_FORK)
		put_sample_id(&r, ppid, ppid);
	else
		put_sample_id(&r, pid, pid);
	event_end(&r);
}

/*
 * FORK of @pid from @ppid.  A kernel FORK clones the parent's maps; a
 * synthesized one (perf record describing an already running process,
 * marked with PERF_RECORD_MISC_FORK_EXEC) must not.
 */
static void ev_fork(int pid, int ppid, int synthesized)
{
	struct task *child = task(pid), *parent = task(ppid);

	task_event(PERF_RECORD_FORK,
		   synthesized ? PERF_RECORD_MISC_FORK_EXEC : 0, pid, ppid);

	flush_maps(child);
	child->kind = PLAIN;
	child->has_comm = parent->has_comm;
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	if (synthesized) {
		if (parent->nr)
			child->kind = SYNTH_FORK;
	} else {
		for (size_t i = 0; i < parent->nr; i++)
			add_map(child, parent->maps[i].start, parent->maps[i].end,
				parent->maps[i].prot, parent->maps[i].name);
	}
}

static void ev_exit(int pid, int ppid)
{
	task_event(PERF_RECORD_EXIT, 0, pid, ppid);
	task(pid)->exited = 1;
}

/* PERF_RECORD_COMM: u32 pid, tid; char comm[] padded to 8 bytes. */
static void ev_comm(int pid, const char *comm, int exec)
{
	struct task *t = task(pid);
	struct rec r;

	now += 1000;
	event_begin(&r, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	put32(&r, pid);
	put32(&r, pid);
	put_str(&r, comm, 8);
	put_sample_id(&r, pid, pid);
	event_end(&r);

	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->has_comm = 1;
	if (exec) {		/* the new image starts with no maps */
		flush_maps(t);
		t->kind = EXEC;
	}
}

/* Fake but stable device/inode numbers: the same name gets the same ino. */
static u64 fake_ino(const char *name)
{
	u64 h = 14695981039346656037ULL;	/* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 1099511628211ULL;
	return (h & 0xffffff) | 1;
}

/*
 * PERF_RECORD_MMAP2: u32 pid, tid; u64 start, len, pgoff; u32 maj, min;
 * u64 ino, ino_generation; u32 prot, flags; char filename[] padded to 8.
 * @prot is /proc/PID/maps style, e.g. "r-xp"; the 4th letter gives
 * MAP_SHARED ('s') or MAP_PRIVATE ('p').
 */
static void ev_mmap2(int pid, u64 start, u64 end, const char *prot,
		     const char *name)
{
	u32 p = (prot[0] == 'r' ? PROT_READ : 0) |
		(prot[1] == 'w' ? PROT_WRITE : 0) |
		(prot[2] == 'x' ? PROT_EXEC : 0);
	u16 misc = PERF_RECORD_MISC_USER;
	struct rec r;

	if (!(p & PROT_EXEC))	/* as the kernel marks non-exec mmaps */
		misc |= PERF_RECORD_MISC_MMAP_DATA;

	now += 1000;
	event_begin(&r, PERF_RECORD_MMAP2, misc);
	put32(&r, pid);
	put32(&r, pid);
	put64(&r, start);
	put64(&r, end - start);
	put64(&r, 0);			/* pgoff */
	put32(&r, 8);			/* maj */
	put32(&r, 1);			/* min */
	put64(&r, fake_ino(name));
	put64(&r, 1);			/* ino_generation */
	put32(&r, p);
	put32(&r, prot[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
	put_str(&r, name, 8);
	put_sample_id(&r, pid, pid);
	event_end(&r);

	model_mmap(task(pid), start, end, prot, name);
}

/*
 * The kernel's map, written first (perf record synthesizes it before the
 * processes): PERF_RECORD_MMAP2 as in ev_mmap2(), pid -1, tid 0, no
 * device, inode or prot, and the sample_id of a synthesized event (zero).
 * It goes to the kernel's maps, not to a process: no truth.
 */
static void ev_kernel_mmap(void)
{
	struct rec r;

	event_begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_KERNEL);
	put32(&r, (u32)-1);		/* pid: HOST_KERNEL_ID */
	put32(&r, 0);			/* tid */
	put64(&r, KERNEL_START);
	put64(&r, KERNEL_END - KERNEL_START);
	put64(&r, KERNEL_START);	/* pgoff: the address of _text */
	put32(&r, 0);			/* maj */
	put32(&r, 0);			/* min */
	put64(&r, 0);			/* ino */
	put64(&r, 0);			/* ino_generation */
	put32(&r, 0);			/* prot */
	put32(&r, 0);			/* flags */
	put_str(&r, KERNEL_MMAP_NAME, 8);
	for (int i = 0; i < 3; i++)	/* sample_id: pid/tid, time, cpu */
		put64(&r, 0);
	event_end(&r);
}

/*
 * struct branch_flags (tools/perf/util/branch.h) as the kernel of our byte
 * order stores it: mispred:1, predicted:1, in_tx:1, abort:1, cycles:16,
 * type:4, ...  A little-endian compiler puts the first field at bit 0, a
 * big-endian one at bit 63 (perf's evsel__bitfield_swap_branch_flags()
 * moves them back field by field).
 */
static u64 branch_flags(int mispred, unsigned cycles)
{
	const struct { int pos, size; u64 v; } f[] = {
		{ 0, 1, mispred != 0 },		/* mispred */
		{ 1, 1, mispred == 0 },		/* predicted */
		{ 4, 16, cycles & 0xffff },	/* cycles */
	};
	u64 v = 0;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		v |= f[i].v << (big_endian ? 64 - f[i].pos - f[i].size : f[i].pos);
	return v;
}

struct branch {
	u64 from, to;
	int mispred;
	unsigned cycles;
};

/*
 * PERF_RECORD_SAMPLE, its fields in the order of include/uapi/linux/
 * perf_event.h: ip, pid/tid, time, cpu/res, period (SAMPLE_TYPE), then
 * with PERF_SAMPLE_CALLCHAIN u64 nr, ips[nr] (@chain, or with -d a user
 * chain of @ip alone); with PERF_SAMPLE_BRANCH_STACK u64 nr, nr {from, to,
 * flags}; with -d (REGS_USER, STACK_USER) abi, the registers, size, the
 * stack bytes and dyn_size.  @misc is the cpumode of @ip.
 */
static void ev_sample_full(int pid, u16 misc, u64 ip, const u64 *chain,
			   int nr_chain, const struct branch *br, int nr_br)
{
	struct rec r;

	now += 1000;
	event_begin(&r, PERF_RECORD_SAMPLE, misc);
	put64(&r, ip);
	put32(&r, pid);
	put32(&r, pid);
	put64(&r, now);
	put32(&r, 0);
	put32(&r, 0);
	put64(&r, SAMPLE_PERIOD);
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (chain) {
			put64(&r, nr_chain);
			for (int i = 0; i < nr_chain; i++)
				put64(&r, chain[i]);
		} else {
			put64(&r, 2);
			put64(&r, PERF_CONTEXT_USER);
			put64(&r, ip);
		}
	}
	if (sample_type & PERF_SAMPLE_BRANCH_STACK) {
		put64(&r, nr_br);
		for (int i = 0; i < nr_br; i++) {
			put64(&r, br[i].from);
			put64(&r, br[i].to);
			put64(&r, branch_flags(br[i].mispred, br[i].cycles));
		}
	}
	if (sample_type & PERF_SAMPLE_REGS_USER) {
		put64(&r, PERF_SAMPLE_REGS_ABI_64);
		put64(&r, now);			/* BP */
		put64(&r, 0x7ffc00000000ULL);	/* SP */
		put64(&r, ip);			/* IP */
	}
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		put64(&r, STACK_USER);
		for (int i = 0; i < STACK_USER / 8; i++)
			put64(&r, 0);
		put64(&r, STACK_USER);		/* dyn_size */
	}
	event_end(&r);
}

/* A user sample at @ip (with -d, its DWARF call chain data). */
static void ev_sample(int pid, u64 ip)
{
	ev_sample_full(pid, PERF_RECORD_MISC_USER, ip, NULL, 0, NULL, 0);
}

/* ---- scenario "report" --------------------------------------------------- */

enum op { OP_KFORK, OP_SFORK, OP_EXIT, OP_COMM, OP_EXEC, OP_MMAP, OP_SAMPLE };

struct step {
	enum op op;
	int pid;
	int ppid;		/* FORK, EXIT */
	u64 start, end;		/* MMAP; start is the ip of a SAMPLE */
	const char *prot;	/* MMAP */
	const char *name;	/* MMAP file name, COMM comm */
};

/* synthesized FORK (FORK_EXEC), kernel FORK, EXIT, COMM, exec COMM, ... */
#define S_FORK(pid, ppid)	{ OP_SFORK, pid, ppid, 0, 0, NULL, NULL }
#define K_FORK(pid, ppid)	{ OP_KFORK, pid, ppid, 0, 0, NULL, NULL }
#define EXIT(pid, ppid)		{ OP_EXIT, pid, ppid, 0, 0, NULL, NULL }
#define COMM(pid, comm)		{ OP_COMM, pid, 0, 0, 0, NULL, comm }
#define EXEC(pid, comm)		{ OP_EXEC, pid, 0, 0, 0, NULL, comm }
#define MMAP(pid, s, e, prot, name) { OP_MMAP, pid, 0, s, e, prot, name }
#define SAMPLE(pid, ip)		{ OP_SAMPLE, pid, 0, ip, 0, NULL, NULL }

#define LIB "/lib/sparc64-linux-gnu/"
#define USRLIB "/usr/lib/sparc64-linux-gnu/"

/*
 * The address layout of the original report (David Miller, sparc64):
 * "perf record" finds bash (1309) and the emacs-gtk (1400) it started
 * already running and synthesizes them the way __event__synthesize_thread()
 * does: FORK marked FORK_EXEC, then COMM, then one MMAP2 per map.
 * Synthesizing pid 1 is left out: it only appears as bash's parent.
 *
 * emacs-gtk's /usr/bin/emacs-gtk overlaps bash's /bin/bash text, data and
 * heap; its ld and libc sit where bash has them; it has no libtinfo, libdl
 * or libnss_files, so if bash's maps were cloned into it those would stay.
 *
 * Then live activity: bash runs a subshell (1450) that exits, and forks
 * 1500 which execs ls: the kernel FORK clones bash's maps (correct), the
 * exec must drop them, ls's own maps are at new addresses (ld, libc) or
 * overlap bash's only partly (/bin/ls).
 */
static const struct step report_steps[] = {
	/* --- synthesized by perf record at start --- */
	S_FORK(1309, 1),
	COMM(1309, "bash"),
	MMAP(1309, 0x0000010000000000, 0x0000010000110000, "r-xp", "/bin/bash"),
	MMAP(1309, 0x0000010000212000, 0x000001000021e000, "rw-p", "/bin/bash"),
	MMAP(1309, 0x000001000021e000, 0x00000100002a0000, "rw-p", "/tmp/perf-1309.map"),
	MMAP(1309, 0xfff0000100000000, 0xfff0000100024000, "r-xp", LIB "ld-2.27.so"),
	MMAP(1309, 0xfff0000100124000, 0xfff0000100126000, "rw-p", LIB "ld-2.27.so"),
	MMAP(1309, 0xfff0000100128000, 0xfff0000100152000, "r-xp", LIB "libtinfo.so.6.1"),
	MMAP(1309, 0xfff0000100254000, 0xfff0000100256000, "rw-p", LIB "libtinfo.so.6.1"),
	MMAP(1309, 0xfff0000100258000, 0xfff000010025c000, "r-xp", LIB "libdl-2.27.so"),
	MMAP(1309, 0xfff000010035c000, 0xfff000010035e000, "rw-p", LIB "libdl-2.27.so"),
	MMAP(1309, 0xfff000010046a000, 0xfff000010046c000, "r-xp", "[vdso]"),
	MMAP(1309, 0xfff000010046c000, 0xfff00001005cc000, "r-xp", LIB "libc-2.27.so"),
	MMAP(1309, 0xfff00001006d0000, 0xfff00001006d4000, "rw-p", LIB "libc-2.27.so"),
	MMAP(1309, 0xfff00001006d4000, 0xfff00001006d6000, "rw-p", "/tmp/perf-1309.map"),
	MMAP(1309, 0xfff0000100874000, 0xfff000010087e000, "r-xp", LIB "libnss_files-2.27.so"),
	MMAP(1309, 0xfff000010097e000, 0xfff0000100980000, "rw-p", LIB "libnss_files-2.27.so"),
	MMAP(1309, 0xfff0000100980000, 0xfff0000100986000, "rw-p", "/tmp/perf-1309.map"),

	S_FORK(1400, 1309),
	COMM(1400, "emacs-gtk"),
	MMAP(1400, 0x0000010000000000, 0x0000010000400000, "r-xp", "/usr/bin/emacs-gtk"),
	MMAP(1400, 0x0000010000500000, 0x0000010000680000, "rw-p", "/usr/bin/emacs-gtk"),
	MMAP(1400, 0x0000010000680000, 0x0000010001000000, "rw-p", "[heap]"),
	MMAP(1400, 0xfff0000100000000, 0xfff0000100024000, "r-xp", LIB "ld-2.27.so"),
	MMAP(1400, 0xfff0000100124000, 0xfff0000100126000, "rw-p", LIB "ld-2.27.so"),
	MMAP(1400, 0xfff000010046a000, 0xfff000010046c000, "r-xp", "[vdso]"),
	MMAP(1400, 0xfff000010046c000, 0xfff00001005cc000, "r-xp", LIB "libc-2.27.so"),
	MMAP(1400, 0xfff00001006d0000, 0xfff00001006d4000, "rw-p", LIB "libc-2.27.so"),
	MMAP(1400, 0xfff0000100a00000, 0xfff0000100e80000, "r-xp", USRLIB "libgtk-3.so.0"),
	MMAP(1400, 0xfff0000100f80000, 0xfff0000100fa0000, "rw-p", USRLIB "libgtk-3.so.0"),
	MMAP(1400, 0xfff0000101000000, 0xfff0000101120000, "r-xp", LIB "libglib-2.0.so.0"),
	MMAP(1400, 0xfff0000101220000, 0xfff0000101224000, "rw-p", LIB "libglib-2.0.so.0"),
	MMAP(1400, 0xfff0000101300000, 0xfff0000101400000, "rw-s", "/dev/shm/emacs-gtk-shm"),

	/* --- live: events from the kernel --- */
	SAMPLE(1309, 0x0000010000045670),		/* bash in /bin/bash */
	SAMPLE(1400, 0x0000010000123450),		/* emacs-gtk in emacs-gtk */
	SAMPLE(1400, 0x0000010000234560),
	SAMPLE(1400, 0x00000100003fff00),

	K_FORK(1450, 1309),				/* a subshell ... */
	SAMPLE(1450, 0x0000010000045680),		/* ... in /bin/bash */
	EXIT(1450, 1309),				/* ... that exits */

	K_FORK(1500, 1309),				/* bash forks ... */
	EXEC(1500, "ls"),				/* ... and execs ls */
	MMAP(1500, 0x0000010000000000, 0x0000010000020000, "r-xp", "/bin/ls"),
	MMAP(1500, 0x0000010000120000, 0x0000010000122000, "rw-p", "/bin/ls"),
	MMAP(1500, 0xfff0000200000000, 0xfff0000200024000, "r-xp", LIB "ld-2.27.so"),
	MMAP(1500, 0xfff0000200124000, 0xfff0000200126000, "rw-p", LIB "ld-2.27.so"),
	MMAP(1500, 0xfff000020046a000, 0xfff000020046c000, "r-xp", "[vdso]"),
	MMAP(1500, 0xfff000020046c000, 0xfff00002005cc000, "r-xp", LIB "libc-2.27.so"),
	MMAP(1500, 0xfff00002006d0000, 0xfff00002006d4000, "rw-p", LIB "libc-2.27.so"),

	/* ls in /bin/ls */
	SAMPLE(1500, 0x0000010000004560),
	SAMPLE(1500, 0x0000010000008900),
	SAMPLE(1500, 0x000001000000a000),
	/* ls where only the pre-exec image had libtinfo: a dso-less ip */
	SAMPLE(1500, 0xfff0000100130000),
	SAMPLE(1500, 0xfff0000100131000),
	SAMPLE(1500, 0xfff0000100132000),
	/* emacs-gtk where only bash had libnss_files: a dso-less ip */
	SAMPLE(1400, 0xfff0000100875000),
	SAMPLE(1400, 0xfff0000100876000),
	SAMPLE(1400, 0xfff0000100877000),
	/* emacs-gtk in emacs-gtk */
	SAMPLE(1400, 0x0000010000123460),
};

static void run_steps(const struct step *s, size_t n)
{
	for (; n--; s++) {
		switch (s->op) {
		case OP_KFORK:	ev_fork(s->pid, s->ppid, 0); break;
		case OP_SFORK:	ev_fork(s->pid, s->ppid, 1); break;
		case OP_EXIT:	ev_exit(s->pid, s->ppid); break;
		case OP_COMM:	ev_comm(s->pid, s->name, 0); break;
		case OP_EXEC:	ev_comm(s->pid, s->name, 1); break;
		case OP_MMAP:	ev_mmap2(s->pid, s->start, s->end, s->prot, s->name); break;
		case OP_SAMPLE:	ev_sample(s->pid, s->start); break;
		}
	}
}

/* ---- scenario "machine N M" ---------------------------------------------- */

/*
 * A big machine synthesized at perf record start: processes 1000.. (each
 * FORK_EXEC from its parent, COMM, M MMAP2s; 1000 is a child of pid 1 and
 * the others form a tree of 16 children per process, so every parent holds
 * maps a wrong clone would copy) and then one sample per process in
 * its executable.  Maps are page aligned, non-overlapping, of varied sizes
 * with gaps between them; map 0 is the process's own executable, then come
 * libraries as text/data pairs whose names repeat across processes (so
 * perf shares their dsos), spread over a few directories.
 */
static void scenario_machine(int n, int m)
{
	static const char *const dirs[] = {
		"/usr/lib/x86_64-linux-gnu/", "/lib/", "/usr/local/lib/",
		"/opt/app/lib/",
	};
	char name[128], comm[16];

	for (int i = 0; i < n; i++) {
		int pid = 1000 + i;
		u64 addr = 0x400000;

		snprintf(comm, sizeof(comm), "proc-%d", i);
		/* a process tree: parents (synthesized first) hold maps too */
		ev_fork(pid, i ? 1000 + (i - 1) / 16 : 1, 1);
		ev_comm(pid, comm, 0);
		for (int j = 0; j < m; j++) {
			u64 len = (u64)(1 + (i + 7 * j) % 13) << 12;
			int k = (j - 1) / 2;	/* library: maps 1,2 -> 0 ... */
			const char *prot = j % 2 ? "r-xp" :
					   k % 5 == 4 ? "rw-s" : "rw-p";

			if (j == 0) {
				snprintf(name, sizeof(name), "/usr/bin/prog-%d", i);
				prot = "r-xp";
			} else {
				snprintf(name, sizeof(name), "%slibmod%d.so.%d",
					 dirs[k % 4], k % 100, k % 3);
			}
			ev_mmap2(pid, addr, addr + len, prot, name);
			/* a gap of 0..3 pages; libraries far above the exe */
			addr += len + ((u64)(j % 4) << 12);
			if (j == 0)
				addr = 0x7f0000000000 + ((u64)(i % 64) << 24);
		}
	}
	for (int i = 0; i < n; i++)
		ev_sample(1000 + i, 0x400100 + (u64)(i % 16) * 0x40);
}

/* ---- scenario "execchain N" ---------------------------------------------- */

/*
 * A shell (2000) is synthesized with a few maps; it forks 2001 (kernel
 * FORK, maps cloned), which then execs N times in a row.  Each image has
 * 10 fresh maps (exe + 9 library maps) whose addresses shift by 17 pages
 * per exec, so each image partly overlaps the previous one; a sample after
 * each exec hits the new exe.  With -g the two pids are 4194700 and
 * 4194701, which no process has: perf 7.3 reads /proc/PID/exe of the
 * shell's pid for its e_machine, and a live 2000 would change what it
 * does (pid_max wraps on a busy machine).
 */
static void scenario_execchain(int n)
{
	/* -g: above PID_MAX_LIMIT, for no /proc/PID of this machine to count */
	const int sh = gone ? 4194700 : 2000, child = sh + 1;
	char name[128], comm[16];

	ev_fork(sh, 1, 1);
	ev_comm(sh, "sh", 0);
	ev_mmap2(sh, 0x400000, 0x420000, "r-xp", "/bin/dash");
	ev_mmap2(sh, 0x620000, 0x622000, "rw-p", "/bin/dash");
	ev_mmap2(sh, 0x7f0000000000, 0x7f0000024000, "r-xp", "/lib/ld-2.27.so");
	ev_mmap2(sh, 0x7f0000200000, 0x7f0000360000, "r-xp", "/lib/libc-2.27.so");
	ev_mmap2(sh, 0x7f0000560000, 0x7f0000564000, "rw-p", "/lib/libc-2.27.so");
	ev_sample(sh, 0x401000);

	ev_fork(child, sh, 0);
	for (int i = 0; i < n; i++) {
		u64 shift = (u64)i * 0x11000;

		snprintf(comm, sizeof(comm), "step-%d", i);
		ev_comm(child, comm, 1);
		snprintf(name, sizeof(name), "/usr/bin/step-%d", i);
		ev_mmap2(child, 0x400000 + shift, 0x430000 + shift, "r-xp", name);
		for (int j = 1; j < 10; j++) {
			u64 start = 0x7f0000000000 + shift + (u64)j * 0x40000;

			snprintf(name, sizeof(name), "/lib/libstep%d-%d.so", j, i % 5);
			ev_mmap2(child, start, start + 0x20000,
				 j % 2 ? "r-xp" : "rw-p", name);
		}
		ev_sample(child, 0x401000 + shift);
	}
}

/* ---- scenario "remap N" ------------------------------------------------- */

/*
 * A shell forks a child that execs a JIT runtime, which maps its code cache,
 * 64 pages of /tmp/jit-code, one page a record, N times in turn: each MMAP2
 * replaces the map of a page exactly, as mprotect() to PROT_EXEC does. A
 * sample every 1,000 records.
 */
static void scenario_remap(int n)
{
	const int sh = 2200, child = sh + 1;
	const u64 cache = 0x7f1000000000;

	ev_fork(sh, 1, 1);
	ev_comm(sh, "sh", 0);
	ev_mmap2(sh, 0x400000, 0x420000, "r-xp", "/bin/dash");
	ev_fork(child, sh, 0);
	ev_comm(child, "jit", 1);
	ev_mmap2(child, 0x400000, 0x430000, "r-xp", "/usr/bin/jit");
	ev_mmap2(child, 0x7f0000200000, 0x7f0000360000, "r-xp", "/lib/libc-2.27.so");
	for (int i = 0; i < n; i++) {
		u64 page = cache + (u64)(i % 64) * 0x1000;

		ev_mmap2(child, page, page + 0x1000, "r-xp", "/tmp/jit-code");
		if (i % 1000 == 999)
			ev_sample(child, page + 0x10);
	}
}

/* ---- scenario "bigexec N M" ----------------------------------------------- */

/*
 * A parent is synthesized with /bin/sh and N maps of one page each, with a
 * page between them; it forks M children (kernel FORK: each gets a copy of
 * the N maps), and each child execs a small program of 3 maps. What exec
 * costs grows with the maps the old image leaves.
 *
 * The parent's pid is that of the process running gen-trace (make bench's
 * shell, alive while the bench reads the trace): perf 7.3 learns a
 * thread's e_machine from the first map whose file it has opened, else
 * from /proc/PID/exe, and until it knows it, scans every map on every new
 * map, O(N^2) for the parent (over 90 s for N = 100,000 here). With a
 * live pid it knows it at the first map, so that cost stays out of what
 * the bench measures: exec. With -g the parent's pid is one no process has,
 * for what the e_machine lookup costs (with -d, for the DWARF unwinder).
 */
static void scenario_bigexec(int n, int m)
{
	/* -g: above PID_MAX_LIMIT, so that its e_machine is in no /proc */
	const int parent = gone ? 4194400 : getppid();
	char name[64];

	ev_fork(parent, 0, 1);
	ev_comm(parent, "bigmaps", 0);
	ev_mmap2(parent, 0x1000000, 0x1020000, "r-xp", "/bin/sh");
	for (int i = 0; i < n; i++) {
		u64 start = 0x10000000 + (u64)i * 0x2000;

		snprintf(name, sizeof(name), "/usr/lib/bigmaps/lib%d.so", i % 1000);
		ev_mmap2(parent, start, start + 0x1000, "r-xp", name);
	}
	ev_sample(parent, 0x10000100);
	for (int c = 0; c < m; c++) {
		int pid = 1000000 + c;	/* above any live pid here */

		ev_fork(pid, parent, 0);
		ev_comm(pid, "small", 1);
		ev_mmap2(pid, 0x400000, 0x420000, "r-xp", "/usr/bin/small");
		ev_mmap2(pid, 0x7f0000000000, 0x7f0000024000, "r-xp", "/lib/ld-2.27.so");
		ev_mmap2(pid, 0x7f0000200000, 0x7f0000360000, "r-xp", "/lib/libc-2.27.so");
		ev_sample(pid, 0x401000);
	}
}

/* ---- images for "callchain" and "branch" ------------------------------ */

/*
 * Their processes have pids above PID_MAX_LIMIT (4194304): perf 7.3 reads
 * /proc/PID/exe for a thread's e_machine when its maps do not tell it,
 * and a pid of this machine would make what it reads (and costs) depend
 * on the processes running.
 */
#define IMAGE_SHIFT	0x11000ULL	/* 17 pages per image, as execchain */
#define IMAGE_LIBS	0x7f0000000000ULL
#define IMAGE_LIB_STEP	0x40000ULL	/* 9 maps of 0x20000, gaps between */
#define UNMAPPED	0x10000000ULL	/* no image maps anything here */

static u64 rng = 0x9e3779b97f4a7c15ULL;

/* xorshift64: the same file on every run */
static u64 rand64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Image @i of a process: /usr/bin/PROG-I (0x30000 bytes at 0x400000 +
 * i * IMAGE_SHIFT), then 9 library maps of 0x20000 bytes, r-xp and rw-p in
 * turn, IMAGE_LIB_STEP apart, from IMAGE_LIBS + i * IMAGE_SHIFT; names
 * repeat every 3 images.  Image i + 1 overlaps image i: what image i + 1
 * does not map of image i's library j is its first IMAGE_SHIFT bytes.
 */
static void image_mmaps(int pid, const char *prog, int i)
{
	u64 shift = (u64)i * IMAGE_SHIFT;
	char name[128];

	snprintf(name, sizeof(name), "/usr/bin/%s-%d", prog, i);
	ev_mmap2(pid, 0x400000 + shift, 0x430000 + shift, "r-xp", name);
	for (int j = 1; j < 10; j++) {
		u64 start = IMAGE_LIBS + shift + (u64)j * IMAGE_LIB_STEP;

		snprintf(name, sizeof(name), "/usr/lib/%s/lib%s%d-%d.so", prog,
			 prog, j, i % 3);
		ev_mmap2(pid, start, start + 0x20000, j % 2 ? "r-xp" : "rw-p",
			 name);
	}
}

/* Where a user address falls, relative to image i (see image_mmaps()). */
enum where { IN_EXE, IN_LIB, IN_OLD_IMAGE, IN_NO_MAP };

/*
 * An address of image @i: in its exe, in one of its text libraries, in
 * what only image i - 1 mapped (for image 0, a gap), or where nothing is.
 */
static u64 user_addr(int i, enum where w)
{
	u64 shift = (u64)i * IMAGE_SHIFT;
	u64 j = 2 * (rand64() % 5) + 1;		/* a text library */
	u64 lib = IMAGE_LIBS + shift + j * IMAGE_LIB_STEP;
	u64 r = rand64() & ~7ULL;

	switch (w) {
	case IN_EXE:
		return 0x401000 + shift + r % 0x2f000;
	case IN_LIB:
		return lib + r % 0x20000;
	case IN_OLD_IMAGE:
		return lib - IMAGE_SHIFT + r % IMAGE_SHIFT;
	default:
		return UNMAPPED + r % 0x1000000;
	}
}

static u64 kernel_addr(void)
{
	return KERNEL_START + (rand64() & ~7ULL) % (KERNEL_END - KERNEL_START);
}

/* ---- scenario "late" --------------------------------------------------- */

/*
 * A sample that the file holds after an exec of its process, with a time
 * before the exec, as AUX area trace decoded late gives, or a tool that
 * takes the events out of time order (perf script --show-round-events).
 * Both images map a program at 0x400000: /bin/old, then /bin/new.
 */
static void scenario_late(void)
{
	u64 before, after;

	ev_fork(2100, 1, 1);
	ev_comm(2100, "old", 0);
	ev_mmap2(2100, 0x400000, 0x410000, "r-xp", "/bin/old");
	before = now;
	now += 100000;
	ev_comm(2100, "new", 1);
	ev_mmap2(2100, 0x400000, 0x410000, "r-xp", "/bin/new");
	after = now;
	now = before;
	ev_sample(2100, 0x401000);	/* of /bin/old */
	now = after;
	ev_sample(2100, 0x402000);	/* of /bin/new */
}

/* ---- scenario "callchain N" -------------------------------------------- */

#define CC_PARENT	4194500		/* see the pids above */
#define CC_EXECS	12
#define CC_KERNEL	40		/* kernel frames of a chain */
#define CC_USER		22		/* user frames: 7 of them in no map */
#define CC_KPATHS	64		/* distinct kernel stacks */
#define CC_UPATHS	32		/* distinct user stacks per image */

/* user frame @e of a stack: 7 of 22 in no map, 3 of them in image i - 1 */
static enum where cc_where(int e)
{
	if (e % 3 == 2)
		return e % 2 ? IN_OLD_IMAGE : IN_NO_MAP;
	return e % 4 == 0 ? IN_EXE : IN_LIB;
}

/*
 * A process as from 'perf record -g' (frame pointers), kernel stacks
 * mostly.  A shell (CC_PARENT, image 0, synthesized) forks a child (kernel
 * FORK) that execs CC_EXECS times (images 1..CC_EXECS); after each exec,
 * N / CC_EXECS samples, of the shell and of the child in turn, each with a
 * 64-entry call chain: PERF_CONTEXT_KERNEL, 40 kernel addresses (one of
 * CC_KPATHS stacks that share their last 5 frames, the syscall entry),
 * PERF_CONTEXT_USER, 22 user addresses (one of CC_UPATHS stacks of the
 * image: 15 in its exe and text libraries, 7 in no map, 3 of these in
 * what only the image before mapped).  One sample in 8 has a user stack
 * only (ip in user space); one in 8 has the same 62 addresses with no
 * context marker: perf then resolves them all as user addresses.  The
 * kernel map (ev_kernel_mmap()) comes first.
 */
static void scenario_callchain(int n)
{
	static u64 kpath[CC_KPATHS][CC_KERNEL];
	static u64 upath[2][CC_UPATHS][CC_USER];
	static const char *const comms[2] = { "cc-shell", "cc-prog" };
	const int pid[2] = { CC_PARENT, CC_PARENT + 1 };
	u64 chain[2 + CC_KERNEL + CC_USER];
	char comm[16];

	for (int p = 0; p < CC_KPATHS; p++)
		for (int e = 0; e < CC_KERNEL; e++)
			kpath[p][e] = e < CC_KERNEL - 5 ? kernel_addr() :
				      KERNEL_START + 0xc00000 + (u64)e * 0x40;

	ev_kernel_mmap();
	ev_fork(pid[0], 1, 1);
	ev_comm(pid[0], comms[0], 0);
	image_mmaps(pid[0], comms[0], 0);
	ev_fork(pid[1], pid[0], 0);
	for (int i = 1; i <= CC_EXECS; i++) {
		const int image[2] = { 0, i };

		snprintf(comm, sizeof(comm), "%s-%d", comms[1], i);
		ev_comm(pid[1], comm, 1);
		image_mmaps(pid[1], comms[1], i);
		/* the stacks of each process's current image */
		for (int t = 0; t < 2; t++) {
			for (int p = 0; p < CC_UPATHS; p++) {
				u64 *u = upath[t][p];

				for (int e = 0; e < CC_USER; e++)
					u[e] = user_addr(image[t], cc_where(e));
			}
		}
		for (int s = 0; s < n / CC_EXECS; s++) {
			const int t = s % 2, kind = s / 2 % 8;
			const u64 *k = kpath[rand64() % CC_KPATHS];
			const u64 *u = upath[t][rand64() % CC_UPATHS];
			int nr = 0;

			if (kind == 3) {		/* user only */
				chain[nr++] = PERF_CONTEXT_USER;
				memcpy(chain + nr, u, CC_USER * sizeof(u64));
				nr += CC_USER;
				ev_sample_full(pid[t], PERF_RECORD_MISC_USER,
					       u[0], chain, nr, NULL, 0);
				continue;
			}
			if (kind != 7)
				chain[nr++] = PERF_CONTEXT_KERNEL;
			memcpy(chain + nr, k, CC_KERNEL * sizeof(u64));
			nr += CC_KERNEL;
			if (kind != 7)
				chain[nr++] = PERF_CONTEXT_USER;
			memcpy(chain + nr, u, CC_USER * sizeof(u64));
			nr += CC_USER;
			ev_sample_full(pid[t], PERF_RECORD_MISC_KERNEL, k[0],
				       chain, nr, NULL, 0);
		}
	}
}

/* ---- scenario "branch N" ----------------------------------------------- */

#define BR_PARENT	4194600		/* see the pids above */
#define BR_EXECS	8
#define BR_ENTRIES	32

/* the target of user branch entry @e: 2 of 32 in what image i - 1 mapped */
static enum where br_to(int e)
{
	if (e % 16 == 5)
		return IN_OLD_IMAGE;
	return e % 3 ? IN_LIB : IN_EXE;
}

/*
 * Samples as from 'perf record -b' (any branch, user and kernel): a shell
 * (BR_PARENT, image 0, synthesized) forks a child that execs BR_EXECS
 * times (images 1..BR_EXECS); after each exec N / BR_EXECS samples of the
 * shell and the child in turn, at a user ip in the exe, each with 32
 * branch entries, newest first: in 8 of them a kernel address (a syscall
 * into the kernel, the return from it), 2 go to what only the image before
 * mapped, the others go between the image's exe and text libraries.
 * Flags: predicted or (one in 8) mispredicted, 1 to 1000 cycles.
 */
static void scenario_branch(int n)
{
	static const char *const comms[2] = { "br-shell", "br-prog" };
	const int pid[2] = { BR_PARENT, BR_PARENT + 1 };
	struct branch br[BR_ENTRIES];
	char comm[16];

	ev_kernel_mmap();
	ev_fork(pid[0], 1, 1);
	ev_comm(pid[0], comms[0], 0);
	image_mmaps(pid[0], comms[0], 0);
	ev_fork(pid[1], pid[0], 0);
	for (int i = 1; i <= BR_EXECS; i++) {
		const int image[2] = { 0, i };

		snprintf(comm, sizeof(comm), "%s-%d", comms[1], i);
		ev_comm(pid[1], comm, 1);
		image_mmaps(pid[1], comms[1], i);
		for (int s = 0; s < n / BR_EXECS; s++) {
			const int t = s % 2, im = image[t];

			for (int e = 0; e < BR_ENTRIES; e++) {
				struct branch *b = &br[e];

				switch (e % 8) {
				case 1:		/* sysret */
					b->from = kernel_addr();
					b->to = user_addr(im, IN_LIB);
					break;
				case 2:		/* syscall */
					b->from = user_addr(im, IN_LIB);
					b->to = kernel_addr();
					break;
				default:
					b->from = user_addr(im, e % 2 ? IN_LIB :
								IN_EXE);
					b->to = user_addr(im, br_to(e));
				}
				b->mispred = rand64() % 8 == 0;
				b->cycles = 1 + rand64() % 1000;
			}
			ev_sample_full(pid[t], PERF_RECORD_MISC_USER,
				       user_addr(im, IN_EXE), NULL, 0,
				       br, BR_ENTRIES);
		}
	}
}

/* ---- file header, attr and features -------------------------------------- */

/*
 * The perf_event_attr flag bitfield as stored by a writer of our byte order.
 * A big-endian compiler allocates bitfields from the most significant bit,
 * so a sparc64 perf stores bit k at bit 63-k of a big-endian u64 (perf's
 * swap_bitfield() undoes that by reversing the bits of each byte).
 */
static u64 attr_flags(void)
{
	u64 f = 1ULL << ATTR_DISABLED | 1ULL << ATTR_INHERIT |
		1ULL << ATTR_MMAP | 1ULL << ATTR_COMM | 1ULL << ATTR_FREQ |
		1ULL << ATTR_TASK | 1ULL << ATTR_MMAP_DATA |
		1ULL << ATTR_SAMPLE_ID_ALL | 1ULL << ATTR_MMAP2 |
		1ULL << ATTR_COMM_EXEC;
	u64 rev = 0;

	if (!big_endian)
		return f;
	for (int i = 0; i < 64; i++)
		if (f & (1ULL << i))
			rev |= 1ULL << (63 - i);
	return rev;
}

/* struct perf_file_attr: perf_event_attr (VER7) + ids perf_file_section. */
static void put_file_attr(struct rec *r)
{
	put32(r, PERF_TYPE_SOFTWARE);	/* type */
	put32(r, ATTR_SIZE);		/* size */
	put64(r, PERF_COUNT_SW_CPU_CLOCK); /* config */
	put64(r, SAMPLE_FREQ);		/* sample_freq */
	put64(r, sample_type);		/* sample_type */
	put64(r, 0);			/* read_format */
	put64(r, attr_flags());		/* disabled, inherit, mmap, ... */
	put32(r, 0);			/* wakeup_events */
	put32(r, 0);			/* bp_type */
	put64(r, 0);			/* config1 */
	put64(r, 0);			/* config2 */
	put64(r, sample_type & PERF_SAMPLE_BRANCH_STACK ?
		 BRANCH_SAMPLE_TYPE : 0);	/* branch_sample_type */
	put64(r, sample_type & PERF_SAMPLE_REGS_USER ?
		 REGS_USER_MASK : 0);		/* sample_regs_user */
	put32(r, sample_type & PERF_SAMPLE_STACK_USER ?
		 STACK_USER : 0);		/* sample_stack_user */
	put32(r, 0);			/* clockid */
	put64(r, 0);			/* sample_regs_intr */
	put32(r, 0);			/* aux_watermark */
	put16(r, 0);			/* sample_max_stack */
	put16(r, 0);			/* __reserved_2 */
	put32(r, 0);			/* aux_sample_size */
	put32(r, 0);			/* __reserved_3 */
	put64(r, 0);			/* sig_data */
	put64(r, IDS_OFFSET);		/* ids.offset */
	put64(r, 8);			/* ids.size: one u64 id */
}

/*
 * Feature sections after the data: a perf_file_section per feature bit
 * set, in bit order, then the features.  HOSTNAME is needed for
 * cross-endian files: perf checks that its bit is set to tell whether the
 * bitmap was written as u64 or u32 words, and otherwise assumes an old file
 * with a BUILD_ID section.  ARCH tells "perf report --header" readers where
 * the file came from.  BRANCH_STACK, an empty section, is what perf record
 * writes when its events sample branch stacks: 'perf report' takes it to
 * turn on its branch mode (sort by branch).
 */
static u64 write_features(void)
{
	const char *str[2] = { "gen-trace", big_endian ? "sparc64" : "x86_64" };
	const int branch = (sample_type & PERF_SAMPLE_BRANCH_STACK) != 0;
	u64 offset = DATA_OFFSET + data_size + (2 + branch) * 16;
	struct rec r;

	r.n = 0;
	for (int i = 0; i < 2; i++) {
		u64 size = 4 + (strlen(str[i]) + NAME_ALIGN) / NAME_ALIGN * NAME_ALIGN;

		put64(&r, offset);
		put64(&r, size);
		offset += size;
	}
	if (branch) {
		put64(&r, offset);
		put64(&r, 0);
	}
	for (int i = 0; i < 2; i++) {
		put32(&r, (strlen(str[i]) + NAME_ALIGN) / NAME_ALIGN * NAME_ALIGN);
		put_str(&r, str[i], NAME_ALIGN);
	}
	write_rec(&r);
	return 1ULL << HEADER_HOSTNAME | 1ULL << HEADER_ARCH |
	       (u64)branch << HEADER_BRANCH_STACK;
}

static void write_header(u64 features)
{
	struct rec r;

	r.n = 0;
	put64(&r, PERF_MAGIC2);		/* byte order tells perf ours */
	put64(&r, FILE_HEADER_SIZE);
	put64(&r, FILE_ATTR_SIZE);
	put64(&r, FILE_HEADER_SIZE);	/* attrs.offset */
	put64(&r, FILE_ATTR_SIZE);	/* attrs.size: one attr */
	put64(&r, DATA_OFFSET);		/* data.offset */
	put64(&r, data_size);		/* data.size */
	put64(&r, 0);			/* event_types.offset (unused) */
	put64(&r, 0);			/* event_types.size */
	put64(&r, features);		/* adds_features, as 4 u64 words */
	put64(&r, 0);
	put64(&r, 0);
	put64(&r, 0);
	put_file_attr(&r);
	put64(&r, EVENT_ID);		/* the ids section */
	write_rec(&r);
}

/* ---- main ------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: gen-trace [-b|-l] [-d] [-g] SCENARIO OUT.data [TRUTH]\n"
		"  -b  big-endian file (as written on sparc64)\n"
		"  -l  little-endian file (default: host byte order)\n"
		"  -d  samples as with --call-graph dwarf\n"
		"  -g  pids no process has: bigexec's parent (not gen-trace's\n"
		"      parent), execchain's processes (not 2000, 2001)\n"
		"SCENARIO: report | machine N M | execchain N | bigexec N M |\n"
		"          callchain N | branch N | late\n"
		"  callchain N  N samples with kernel and user call chains\n"
		"  branch N     N samples with 32-entry branch stacks\n"
		"  late         a sample after an exec, of a time before it\n");
	exit(2);
}

static int number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 0 || v > 1000000)
		usage();
	return (int)v;
}

int main(int argc, char **argv)
{
	const u16 probe = 1;
	int a = 1, n = 0, m = 0;
	const char *scenario, *path, *truth;

	big_endian = *(const unsigned char *)&probe == 0;
	if (a < argc && !strcmp(argv[a], "-b")) {
		big_endian = 1;
		a++;
	} else if (a < argc && !strcmp(argv[a], "-l")) {
		big_endian = 0;
		a++;
	}
	for (; a < argc && (!strcmp(argv[a], "-d") || !strcmp(argv[a], "-g")); a++) {
		if (!strcmp(argv[a], "-d"))
			dwarf = 1;
		else
			gone = 1;
	}
	if (a >= argc)
		usage();
	scenario = argv[a++];
	if (!strcmp(scenario, "machine") || !strcmp(scenario, "bigexec")) {
		if (argc - a < 3)
			usage();
		n = number(argv[a++]);
		m = number(argv[a++]);
	} else if (!strcmp(scenario, "execchain") || !strcmp(scenario, "remap") ||
		   !strcmp(scenario, "callchain") || !strcmp(scenario, "branch")) {
		if (argc - a < 2)
			usage();
		n = number(argv[a++]);
	} else if (strcmp(scenario, "report") && strcmp(scenario, "late")) {
		usage();
	}
	if (argc - a < 1 || argc - a > 2)
		usage();
	path = argv[a];
	truth = argc - a == 2 ? argv[a + 1] : NULL;
	if (dwarf)
		sample_type |= DWARF_SAMPLE_TYPE;
	if (!strcmp(scenario, "callchain"))
		sample_type |= PERF_SAMPLE_CALLCHAIN;
	else if (!strcmp(scenario, "branch"))
		sample_type |= PERF_SAMPLE_BRANCH_STACK;

	out = fopen(path, "wb");
	if (!out) {
		perror(path);
		return 1;
	}
	/* the data first, the header (which holds the data size) last */
	if (fseek(out, DATA_OFFSET, SEEK_SET)) {
		perror(path);
		return 1;
	}
	if (!strcmp(scenario, "report"))
		run_steps(report_steps, sizeof(report_steps) / sizeof(report_steps[0]));
	else if (!strcmp(scenario, "machine"))
		scenario_machine(n, m);
	else if (!strcmp(scenario, "bigexec"))
		scenario_bigexec(n, m);
	else if (!strcmp(scenario, "callchain"))
		scenario_callchain(n);
	else if (!strcmp(scenario, "branch"))
		scenario_branch(n);
	else if (!strcmp(scenario, "late"))
		scenario_late();
	else if (!strcmp(scenario, "remap"))
		scenario_remap(n);
	else
		scenario_execchain(n);

	u64 features = write_features();

	if (fseek(out, 0, SEEK_SET)) {
		perror(path);
		return 1;
	}
	write_header(features);
	if (fclose(out)) {
		perror(path);
		return 1;
	}
	if (truth)
		write_truth(truth);
	return 0;
}
