/*
 * guest.h - what the sparc64 guest programs share (scripts/sparc64-record.sh).
 *
 * The scenario's processes announce themselves in READY_FILE, one line
 * "PID KIND" each, once they are set up for good; after that they only
 * sleep in pause(), so their maps no longer change.  KIND is what
 * scripts/verdict.sh calls it: "synth-fork" for a process that exists before
 * the recording (perf synthesizes it), "exec" for one that exec'd during the
 * recording, "plain" for one forked during the recording without an exec.
 */
#ifndef GUEST_H
#define GUEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SCENARIO_DIR	"/tmp/scenario"
#define READY_FILE	SCENARIO_DIR "/ready"
#define GATE		SCENARIO_DIR "/gate"	/* FIFO: opened once recording */
#define PIECES_FILE	SCENARIO_DIR "/pieces"
/* Processes that write a READY_FILE line: 2 before the recording (shell,
 * editor), 8 during it (see shell.c). */
#define READY_BEFORE	2
#define READY_ALL	10

/* Report on the console (fd 2) and stop. */
static inline void die(const char *prog, const char *what)
{
	dprintf(2, "sparc64-guest: ERROR %s: %s: %s\n", prog, what, strerror(errno));
	_exit(1);
}

/* "PID KIND" to READY_FILE in one write; no stdio, which could allocate
 * and so change the maps. */
static inline void ready(const char *prog, const char *kind)
{
	char line[64];
	int fd = open(READY_FILE, O_WRONLY | O_APPEND | O_CREAT, 0644);
	int n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), kind);

	if (fd < 0 || write(fd, line, n) != n)
		die(prog, READY_FILE);
	close(fd);
}

static inline void idle(void)
{
	for (;;)
		pause();
}

/* An anonymous executable region, as a JIT or an old sparc PLT makes:
 * perf names such maps /tmp/perf-PID.map. */
static inline void anon_exec(const char *prog, int pages)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die(prog, "mmap of an executable anonymous region");
	memset(p, 0x01, pages * pg);	/* "ta 1" traps, never run */
}

/* fork, and exec ARGV in the child. Returns the child's pid. */
static inline pid_t spawn(const char *prog, char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		die(prog, "fork");
	if (pid == 0) {
		execv(argv[0], argv);
		die(prog, argv[0]);
	}
	return pid;
}

#endif
