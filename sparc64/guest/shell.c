/*
 * shell - the shell-like parent of the scenario (bash in the original
 * report): several shared libraries, one loaded with dlopen() like bash's
 * NSS modules, and an anonymous executable region.
 *
 * Before the recording it forks a child that execs /bin/editor (emacs-gtk
 * in the report), which stays: perf must synthesize both.  Then it waits
 * for GATE, which /bin/capture opens once perf records, and starts the
 * workloads of the recording, each forked and exec'd from here:
 *
 *   work chain 1    exec work chain 0, which execs leaf  (1 ready line)
 *   work threads 4  4 threads, then idle                 (1)
 *   work nonleader  a thread that is not the leader execs leaf  (1)
 *   work maps       100 file maps; children fork and exec  (5)
 */
#include <dlfcn.h>
#include <math.h>
#include "guest.h"

static const char *prog = "shell";

int main(void)
{
	char *editor[] = { "/bin/editor", NULL };
	char *work[][4] = {
		{ "/bin/work", "chain", "1", NULL },
		{ "/bin/work", "threads", "4", NULL },
		{ "/bin/work", "nonleader", NULL },
		{ "/bin/work", "maps", NULL },
	};
	volatile double x = 2.0;
	unsigned int i;
	int fd;

	/* as bash does for getpwnam() */
	if (!dlopen("libnss_files.so.2", RTLD_NOW))
		die(prog, dlerror());
	anon_exec(prog, 16);
	x = sqrt(x);	/* libm is used, not only linked */

	spawn(prog, editor);
	ready(prog, "synth-fork");

	fd = open(GATE, O_RDONLY);	/* until the recording is on */
	if (fd < 0)
		die(prog, GATE);
	close(fd);
	for (i = 0; i < sizeof(work) / sizeof(work[0]); i++)
		spawn(prog, work[i]);
	idle();
}
