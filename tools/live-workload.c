/*
 * live-workload.c - processes for scripts/check-live.sh, whose executable
 * maps 'perf record -a' must track across fork, exec and threads.
 *
 *   cc -O2 -Wall -pthread -o build/live-workload tools/live-workload.c
 *
 *   live-workload idle
 *       idle (an exec target)
 *   live-workload threads N
 *       N threads spin for a moment, then every thread idles
 *   live-workload nonleader GATE PROG [ARG...]
 *       a thread that is not the group leader waits for GATE, then execs
 *       PROG; after de_thread() the process keeps the leader's pid
 *   live-workload maps FILE GATE PROG [ARG...]
 *       map PIECES executable pages of FILE (created if needed) apart from
 *       each other, fork a child, wait for GATE, fork another child and one
 *       that execs PROG; print "PID plain|exec" for each child on stdout
 *
 * GATE is a FIFO, opened for reading: that blocks until some writer opens
 * it.  "-" means no gate.  After its setup every process idles in pause()
 * (or in PROG) and does nothing more; SIGALRM ends it after LIFETIME
 * seconds if nobody killed it before.
 *
 * Ready lines: once a process's maps are final for a state, it appends
 * "ready PID gated" (about to wait for GATE) or "ready PID idle" (set up,
 * every thread idle or about to) to the file $LIVE_READY, if set. Each is
 * one write(2) of an O_APPEND file, so lines of several processes do not
 * mix, and no stdio buffer or heap is involved.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PIECES		100
#define LIFETIME	120
#define SPIN_MS		30

static void die(const char *what)
{
	fprintf(stderr, "live-workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void idle(void)
{
	for (;;)
		pause();
}

/* Append "ready PID STATE" to $LIVE_READY. */
static void ready(const char *state)
{
	const char *path = getenv("LIVE_READY");
	char line[64];
	int fd, n;

	if (!path)
		return;
	n = snprintf(line, sizeof(line), "ready %d %s\n", (int)getpid(), state);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || write(fd, line, n) != n)
		die(path);
	close(fd);
}

/* Block until a writer opens the FIFO GATE. */
static void gate(const char *path)
{
	int fd;

	if (!strcmp(path, "-"))
		return;
	ready("gated");
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	close(fd);
}

static pthread_barrier_t spun;

static void *spin(void *arg)
{
	struct timespec t0, t;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < SPIN_MS);
	pthread_barrier_wait(&spun);
	idle();
	return NULL;
}

static char **exec_argv;
static const char *exec_gate;

static void *exec_thread(void *arg)
{
	(void)arg;
	gate(exec_gate);
	execv(exec_argv[0], exec_argv);
	die(exec_argv[0]);
	return NULL;
}

static void start_thread(void *(*fn)(void *))
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, NULL);

	if (err) {
		errno = err;
		die("pthread_create");
	}
}

/* PIECES one-page maps r-xp of FILE at offsets 0, 1, 2... pages, each with
 * a PROT_NONE page after it so that no two of them merge. */
static void map_pieces(const char *file)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *base;
	int fd, i;

	fd = open(file, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, PIECES * pg))
		die(file);
	base = mmap(NULL, 2 * PIECES * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		die("mmap");
	for (i = 0; i < PIECES; i++)
		if (mmap(base + 2 * i * pg, pg, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_FIXED, fd, i * pg) == MAP_FAILED)
			die("mmap of a piece");
	close(fd);
}

/* Fork a child that idles, or that execs exec_argv if exec. */
static void child(int exec)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (exec) {
			execv(exec_argv[0], exec_argv);
			die(exec_argv[0]);
		}
		alarm(LIFETIME);
		ready("idle");
		idle();
	}
	printf("%d %s\n", (int)pid, exec ? "exec" : "plain");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int i, n;

	alarm(LIFETIME);	/* kept across exec, not across fork */
	if (argc == 2 && !strcmp(argv[1], "idle")) {
		ready("idle");
		idle();
	}
	if (argc == 3 && !strcmp(argv[1], "threads")) {
		n = atoi(argv[2]);
		if (n < 1 || pthread_barrier_init(&spun, NULL, n + 1))
			die("threads");
		for (i = 0; i < n; i++)
			start_thread(spin);
		pthread_barrier_wait(&spun);
		ready("idle");
		idle();
	}
	if (argc >= 4 && !strcmp(argv[1], "nonleader")) {
		exec_gate = argv[2];
		exec_argv = argv + 3;
		start_thread(exec_thread);
		idle();
	}
	if (argc >= 5 && !strcmp(argv[1], "maps")) {
		exec_argv = argv + 4;
		map_pieces(argv[2]);
		child(0);
		gate(argv[3]);
		child(0);
		child(1);
		ready("idle");
		idle();
	}
	fprintf(stderr, "usage: live-workload idle | threads N | nonleader GATE PROG [ARG...] |\n"
		"       maps FILE GATE PROG [ARG...]\n");
	return 2;
}
