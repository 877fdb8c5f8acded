/*
 * work - the workloads the shell starts during the recording (shell.c).
 * Linked against more libraries than leaf, so that maps left over from
 * before an exec show.
 *
 *   work chain N     exec work chain N-1 ... then leaf: one pid throughout
 *   work threads N   N threads spin a moment, then every thread idles
 *   work nonleader   a thread that is not the group leader execs leaf;
 *                    after de_thread() the process keeps the leader's pid
 *   work maps        PIECES one-page r-xp maps of a file, apart from each
 *                    other; forks a child that keeps them, one that execs
 *                    leaf, and one that forks a grandchild that execs leaf
 *
 * Each process writes its ready line (guest.h) once set up, then idles.
 */
#include <pthread.h>
#include <time.h>
#include "guest.h"

#define PIECES	100
#define SPIN_MS	30

static const char *prog = "work";
static char *leaf[] = { "/bin/leaf", NULL };
static int started;

static void spin(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < SPIN_MS);
}

static void *thread(void *arg)
{
	(void)arg;
	spin();
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	idle();
	return NULL;
}

static void *exec_thread(void *arg)
{
	(void)arg;
	execv(leaf[0], leaf);
	die(prog, leaf[0]);
	return NULL;
}

static void start_thread(void *(*fn)(void *))
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, NULL);

	if (err) {
		errno = err;
		die(prog, "pthread_create");
	}
}

/* PIECES one-page maps r-xp of PIECES_FILE at offsets 0, 1, 2... pages,
 * each with a PROT_NONE page after it so that no two of them merge. */
static void map_pieces(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *base;
	int fd, i;

	fd = open(PIECES_FILE, O_RDWR | O_CREAT, 0755);
	if (fd < 0 || ftruncate(fd, PIECES * pg))
		die(prog, PIECES_FILE);
	base = mmap(NULL, 2 * PIECES * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		die(prog, "mmap");
	for (i = 0; i < PIECES; i++)
		if (mmap(base + 2 * i * pg, pg, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_FIXED, fd, i * pg) == MAP_FAILED)
			die(prog, "mmap of a piece");
	close(fd);
}

static pid_t fork_or_die(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die(prog, "fork");
	return pid;
}

int main(int argc, char **argv)
{
	int i, n;

	if (argc == 3 && !strcmp(argv[1], "chain")) {
		char next[16];
		char *again[] = { "/bin/work", "chain", next, NULL };

		n = atoi(argv[2]);
		if (n <= 0) {
			execv(leaf[0], leaf);
			die(prog, leaf[0]);
		}
		snprintf(next, sizeof(next), "%d", n - 1);
		execv(again[0], again);
		die(prog, again[0]);
	}
	if (argc == 3 && !strcmp(argv[1], "threads")) {
		n = atoi(argv[2]);
		for (i = 0; i < n; i++)
			start_thread(thread);
		while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < n)
			usleep(1000);
		ready(prog, "exec");
		idle();
	}
	if (argc == 2 && !strcmp(argv[1], "nonleader")) {
		start_thread(exec_thread);
		idle();
	}
	if (argc == 2 && !strcmp(argv[1], "maps")) {
		map_pieces();
		if (fork_or_die() == 0) {
			ready(prog, "plain");
			idle();
		}
		spawn(prog, leaf);
		if (fork_or_die() == 0) {
			spawn(prog, leaf);
			ready(prog, "plain");
			idle();
		}
		ready(prog, "exec");
		idle();
	}
	dprintf(2, "usage: work chain N | threads N | nonleader | maps\n");
	return 2;
}
