/*
 * capture - the workload of 'perf record -a ... -- capture OUT' in the guest.
 * perf execs it once its events are on and the running processes are
 * synthesized, so: open GATE (the shell then starts the workloads of the
 * recording), wait until all READY_ALL processes have written their ready
 * line, wait until their maps stop changing and every thread sleeps, then
 * write what the host needs for the truth file to OUT, and exit, which
 * ends the recording. The processes live on past it (init kills them).
 *
 * OUT, per process in ready order:
 *   process PID KIND COMM
 *   parent PPID
 *   thread TID                 (each thread, the leader included)
 *   map LINE                   (each map, as a line of /proc/PID/maps)
 *
 * The maps come from the PROCMAP_QUERY ioctl, not from reading
 * /proc/PID/maps: the guest's 7.3.4 kernel loses about one line of that
 * file per 8 KiB read (a process of 608 maps reads as 601 lines, in reads
 * of 1 MiB; 593 in reads of 4 KiB), the ioctl finds all of them.
 */
#include <dirent.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <time.h>
#include "guest.h"

/* From the kernel's uapi <linux/fs.h>; the cross libc's headers (6.1)
 * predate it. */
struct procmap_query {
	uint64_t size, query_flags, query_addr, vma_start, vma_end, vma_flags;
	uint64_t vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY		_IOWR('f', 17, struct procmap_query)
#define PROCMAP_QUERY_VMA_READABLE	0x01
#define PROCMAP_QUERY_VMA_WRITABLE	0x02
#define PROCMAP_QUERY_VMA_EXECUTABLE	0x04
#define PROCMAP_QUERY_VMA_SHARED	0x08
#define PROCMAP_QUERY_COVERING_OR_NEXT_VMA 0x10

#define MAXPROCS	64

static const char *prog = "capture";
static int pids[MAXPROCS];
static char kinds[MAXPROCS][16];
static int nprocs;

static void fail(const char *msg)
{
	dprintf(2, "sparc64-guest: ERROR %s: %s\n", prog, msg);
	exit(1);
}

static void msleep(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* The whole of a (/proc) file, NUL-terminated; NULL if it is gone. */
static char *slurp(const char *path)
{
	size_t len = 0, size = 4096;
	char *buf = malloc(size);
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, size - len - 1)) > 0) {
		len += n;
		if (len + 1 == size && !(buf = realloc(buf, size *= 2)))
			fail("out of memory");
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* READY_FILE into pids/kinds; a pid twice is an error. */
static void read_ready(void)
{
	char *text = slurp(READY_FILE), *line, *save = NULL;
	int pid, i;
	char kind[16];

	nprocs = 0;
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%d %15s", &pid, kind) != 2)
			fail("bad line in " READY_FILE);
		for (i = 0; i < nprocs; i++)
			if (pids[i] == pid)
				fail("a pid is ready twice in " READY_FILE);
		if (nprocs == MAXPROCS)
			fail("too many processes in " READY_FILE);
		pids[nprocs] = pid;
		strcpy(kinds[nprocs++], kind);
	}
	free(text);
}

/* Calls fn(pid, tid, arg) for each thread of pid; returns how many. */
static int each_thread(int pid, int (*fn)(int, int, void *), void *arg)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			n++;
			if (fn && fn(pid, atoi(d->d_name), arg))
				break;
		}
	closedir(dir);
	return n;
}

/* Non-zero when thread tid of pid is not sleeping (state S). */
static int busy(int pid, int tid, void *arg)
{
	char path[64], *stat, *p;
	int *bad = arg;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	stat = slurp(path);
	p = stat ? strrchr(stat, ')') : NULL;
	if (!p || p[1] != ' ' || p[2] != 'S')
		*bad = 1;
	free(stat);
	return *bad;
}

/* The maps of pid as the lines of /proc/PID/maps; NULL if it is gone. */
static char *maps_of(int pid)
{
	char path[64], name[4096], *text = NULL;
	struct procmap_query q;
	uint64_t addr = 0;
	size_t size = 0;
	FILE *out;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	out = open_memstream(&text, &size);
	if (!out)
		fail("out of memory");
	for (;;) {
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		q.query_flags = PROCMAP_QUERY_COVERING_OR_NEXT_VMA;
		q.query_addr = addr;
		q.vma_name_addr = (uintptr_t)name;
		q.vma_name_size = sizeof(name);
		if (ioctl(fd, PROCMAP_QUERY, &q))
			break;
		fprintf(out, "%08llx-%08llx %c%c%c%c %08llx %02x:%02x %llu%s%s\n",
			(unsigned long long)q.vma_start, (unsigned long long)q.vma_end,
			q.vma_flags & PROCMAP_QUERY_VMA_READABLE ? 'r' : '-',
			q.vma_flags & PROCMAP_QUERY_VMA_WRITABLE ? 'w' : '-',
			q.vma_flags & PROCMAP_QUERY_VMA_EXECUTABLE ? 'x' : '-',
			q.vma_flags & PROCMAP_QUERY_VMA_SHARED ? 's' : 'p',
			(unsigned long long)q.vma_offset, q.dev_major, q.dev_minor,
			(unsigned long long)q.inode, q.vma_name_size ? " " : "",
			q.vma_name_size ? name : "");
		addr = q.vma_end;
	}
	if (errno != ENOENT)
		die(prog, "PROCMAP_QUERY");
	close(fd);
	fclose(out);
	return text;
}

/* The parent's pid of pid, from /proc/PID/stat; 0 if it is gone. */
static int parent_of(int pid)
{
	char path[64], *stat, *p;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	stat = slurp(path);
	p = stat ? strrchr(stat, ')') : NULL;
	if (p && sscanf(p, ") %*c %d", &ppid) != 1)
		ppid = 0;
	free(stat);
	return ppid;
}

static int print_thread(int pid, int tid, void *arg)
{
	(void)pid;
	fprintf(arg, "thread %d\n", tid);
	return 0;
}

int main(int argc, char **argv)
{
	char *maps[MAXPROCS] = { 0 }, *again, *comm, *line, *save, path[64];
	int i, tries, bad, fd = -1;
	FILE *out;

	if (argc != 2)
		fail("usage: capture OUT");
	for (tries = 0; tries < 1000 && fd < 0; tries++) {	/* 10 s */
		fd = open(GATE, O_WRONLY | O_NONBLOCK);		/* ENXIO: no reader yet */
		if (fd < 0)
			msleep(10);
	}
	if (fd < 0)
		die(prog, "nobody waits on " GATE);
	close(fd);

	for (tries = 0; read_ready(), nprocs < READY_ALL; tries++) {
		if (tries == 3000)	/* 60 s */
			fail("not every workload process got ready in 60 s");
		msleep(20);
	}
	if (nprocs != READY_ALL)
		fail("more ready processes than the scenario has");

	/* Settled: every thread sleeps, and the maps are the same 200 ms apart. */
	for (tries = 0;; tries++) {
		if (tries == 50)
			fail("the workloads' maps did not stop changing");
		bad = 0;
		for (i = 0; i < nprocs; i++) {
			free(maps[i]);
			maps[i] = maps_of(pids[i]);
			if (!maps[i] || !each_thread(pids[i], NULL, NULL))
				fail("a workload process is gone before the capture");
			each_thread(pids[i], busy, &bad);
		}
		msleep(200);
		for (i = 0; i < nprocs && !bad; i++) {
			again = maps_of(pids[i]);
			bad = !again || strcmp(again, maps[i]);
			free(again);
		}
		if (!bad)
			break;
	}

	out = fopen(argv[1], "w");
	if (!out)
		die(prog, argv[1]);
	for (i = 0; i < nprocs; i++) {
		snprintf(path, sizeof(path), "/proc/%d/comm", pids[i]);
		comm = slurp(path);
		if (!comm)
			fail("a workload process is gone before the capture");
		comm[strcspn(comm, "\n")] = '\0';
		fprintf(out, "process %d %s %s\nparent %d\n", pids[i], kinds[i], comm,
			parent_of(pids[i]));
		each_thread(pids[i], print_thread, out);
		save = NULL;
		for (line = strtok_r(maps[i], "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(out, "map %s\n", line);
		free(comm);
	}
	if (fclose(out))
		die(prog, argv[1]);
	return 0;
}
