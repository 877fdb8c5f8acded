/*
 * init - PID 1 of the sparc64 guest (scripts/sparc64-record.sh).
 *
 * Mounts proc, sysfs, devtmpfs and tmpfs, then for each perf of
 * /etc/scenario.conf two runs, LABEL (perf record -a -e cpu-clock) and
 * LABEL-d (the same with -d), each of which:
 *   1. starts /bin/shell, which forks /bin/editor, and waits until both are
 *      ready: they exist before the recording;
 *   2. runs 'perf-LABEL record -a -e cpu-clock [-d] -o OUT/RUN/perf.data --
 *      capture OUT/RUN/maps.txt'; capture starts the recording's workloads
 *      and writes their maps;
 *   3. kills every process but itself;
 *   4. runs 'perf report --tasks --mmaps' with every perf of the config
 *      (report-LABEL.txt), and 'perf script --show-task-events
 *      --show-mmap-events' and 'perf report --header-only' with perf-LABEL.
 * Then writes /tmp/out as a tar archive to the raw disk /dev/vda, prints
 * "sparc64-guest: done" and powers off.
 *
 * /etc/scenario.conf: "perf LABEL" lines (the binary is /bin/perf-LABEL)
 * and an optional "freq N" (perf record -F N).
 * Everything goes to the console, prefixed "sparc64-guest:"; errors say
 * "ERROR".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "guest.h"

#define OUT	"/tmp/out"
#define DISK	"/dev/vda"
#define MAXPERFS 4

static char labels[MAXPERFS][32];
static int nperfs;
static char freq[32];
static int errors;

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	dprintf(1, "sparc64-guest: %s\n", buf);
}

static void error(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	dprintf(1, "sparc64-guest: ERROR %s\n", buf);
	errors++;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void msleep(int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static void mnt(const char *what, const char *where, const char *type)
{
	mkdir(where, 0755);
	if (mount(what, where, type, 0, NULL) && errno != EBUSY)
		error("mount %s on %s: %s", type, where, strerror(errno));
}

static void write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		error("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* Run argv with stdout to OUTF and stderr to ERRF (NULL: the console);
 * kill it after TIMEOUT s. Returns its wait status, -1 if it timed out. */
static int run(char *const argv[], const char *outf, const char *errf, int timeout)
{
	double end = now() + timeout;
	int status, fd;
	pid_t pid = fork(), r;

	if (pid < 0) {
		error("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (outf && (fd = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0)
			dup2(fd, 1);
		if (errf && (fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0)
			dup2(fd, 2);
		execv(argv[0], argv);
		dprintf(2, "sparc64-guest: ERROR exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while ((r = waitpid(pid, &status, WNOHANG)) == 0 && now() < end)
		msleep(20);
	if (r == pid)
		return status;
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static const char *describe(int status)
{
	static char buf[64];

	if (status == -1)
		return "timed out";
	if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
	else
		snprintf(buf, sizeof(buf), "signal %d", WTERMSIG(status));
	return buf;
}

static int lines_in(const char *path)
{
	int fd = open(path, O_RDONLY), n = 0;
	char buf[4096];
	ssize_t len, i;

	if (fd < 0)
		return 0;
	while ((len = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < len; i++)
			n += buf[i] == '\n';
	close(fd);
	return n;
}

/* Kill every process but init, and reap them all. */
static void kill_all(void)
{
	kill(-1, SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

static void read_config(void)
{
	FILE *f = fopen("/etc/scenario.conf", "r");
	char key[16], val[32];

	if (!f) {
		error("no /etc/scenario.conf");
		return;
	}
	while (fscanf(f, "%15s %31s", key, val) == 2) {
		if (!strcmp(key, "perf") && nperfs < MAXPERFS)
			strcpy(labels[nperfs++], val);
		else if (!strcmp(key, "freq"))
			snprintf(freq, sizeof(freq), "%s", val);
		else
			error("scenario.conf: unknown line '%s %s'", key, val);
	}
	fclose(f);
}

/* Run NAME: record with /bin/perf-LABEL (-d if DATA), then read the
 * recording with every perf. */
static void do_run(const char *name, const char *label, int data)
{
	char dir[192], file[512], log[512], perf[160], perf_data[256], maps[256];
	char *record[16];
	int n = 0, i, status;
	double t0 = now();

	snprintf(dir, sizeof(dir), OUT "/%s", name);
	mkdir(dir, 0755);
	snprintf(perf, sizeof(perf), "/bin/perf-%s", label);
	snprintf(perf_data, sizeof(perf_data), "%s/perf.data", dir);
	snprintf(maps, sizeof(maps), "%s/maps.txt", dir);

	unlink(READY_FILE);
	unlink(GATE);
	unlink(PIECES_FILE);
	mkdir(SCENARIO_DIR, 0755);
	if (mkfifo(GATE, 0600)) {
		error("mkfifo " GATE ": %s", strerror(errno));
		return;
	}

	/* 1. The processes that exist before the recording. */
	spawn("init", (char *[]){ "/bin/shell", NULL });
	for (i = 0; lines_in(READY_FILE) < READY_BEFORE; i++) {
		if (i == 1500) {	/* 30 s */
			error("%s: shell and editor not ready after 30 s", name);
			kill_all();
			return;
		}
		msleep(20);
	}

	/* 2. The recording. */
	record[n++] = perf;
	record[n++] = "record";
	record[n++] = "-a";
	record[n++] = "-e";
	record[n++] = "cpu-clock";
	if (freq[0]) {
		record[n++] = "-F";
		record[n++] = freq;
	}
	if (data)
		record[n++] = "-d";
	record[n++] = "-o";
	record[n++] = perf_data;
	record[n++] = "--";
	record[n++] = "/bin/capture";
	record[n++] = maps;
	record[n] = NULL;
	snprintf(log, sizeof(log), "%s/record.log", dir);
	say("%s: perf-%s record -a -e cpu-clock%s%s%s", name, label,
	    freq[0] ? " -F " : "", freq, data ? " -d" : "");
	status = run(record, log, log, 120);
	if (status != 0)
		error("%s: perf record: %s; see %s/record.log", name, describe(status), name);
	say("%s: recorded in %.1f s; %d processes ready", name, now() - t0,
	    lines_in(READY_FILE));

	/* 3. The workloads have been captured; end them. */
	kill_all();
	if (status != 0)
		return;

	/* 4. The guest's own reading of the recording. */
	for (i = 0; i < nperfs; i++) {
		snprintf(perf, sizeof(perf), "/bin/perf-%s", labels[i]);
		snprintf(file, sizeof(file), "%s/report-%s.txt", dir, labels[i]);
		snprintf(log, sizeof(log), "%s/report-%s.log", dir, labels[i]);
		status = run((char *[]){ perf, "report", "-i", perf_data, "--tasks",
					 "--mmaps", NULL }, file, log, 120);
		if (status != 0)
			error("%s: perf-%s report: %s", name, labels[i], describe(status));
	}
	snprintf(perf, sizeof(perf), "/bin/perf-%s", label);
	snprintf(file, sizeof(file), "%s/events.txt", dir);
	snprintf(log, sizeof(log), "%s/events.log", dir);
	status = run((char *[]){ perf, "script", "-i", perf_data, "--show-task-events",
				 "--show-mmap-events", NULL }, file, log, 120);
	if (status != 0)
		error("%s: perf script: %s", name, describe(status));
	snprintf(file, sizeof(file), "%s/header.txt", dir);
	run((char *[]){ perf, "report", "-i", perf_data, "--header-only", NULL },
	    file, log, 60);
	say("%s: reports done in %.1f s", name, now() - t0);
}

/* The tar archive of OUT on DISK: ustar headers, files and directories. */
static int disk = -1;
static char block[512];

static void put(const void *data, size_t len)
{
	if (disk >= 0 && write(disk, data, len) != (ssize_t)len) {
		error("writing " DISK ": %s", strerror(errno));
		close(disk);
		disk = -1;
	}
}

static void header(const char *name, char type, long size, long mode)
{
	unsigned int sum = 0;
	size_t i;

	memset(block, 0, sizeof(block));
	snprintf(block, 100, "%s", name);
	snprintf(block + 100, 8, "%07lo", mode);
	snprintf(block + 108, 8, "%07o", 0);
	snprintf(block + 116, 8, "%07o", 0);
	snprintf(block + 124, 12, "%011lo", size);
	snprintf(block + 136, 12, "%011lo", (long)time(NULL));
	memset(block + 148, ' ', 8);
	block[156] = type;
	memcpy(block + 257, "ustar", 6);
	memcpy(block + 263, "00", 2);
	for (i = 0; i < sizeof(block); i++)
		sum += (unsigned char)block[i];
	snprintf(block + 148, 8, "%06o", sum);
	put(block, sizeof(block));
}

static void archive(const char *path, const char *name)
{
	static char buf[65536];
	char sub[512], subname[512];
	struct dirent *d;
	struct stat st;
	ssize_t n;
	long left;
	DIR *dir;
	int fd;

	if (stat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		snprintf(subname, sizeof(subname), "%s/", name);
		header(subname, '5', 0, 0755);
		dir = opendir(path);
		while (dir && (d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
			snprintf(subname, sizeof(subname), "%s/%s", name, d->d_name);
			archive(sub, subname);
		}
		if (dir)
			closedir(dir);
		return;
	}
	if (!S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY)) < 0)
		return;
	header(name, '0', st.st_size, 0644);
	for (left = st.st_size; left > 0; left -= n) {
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		if (n > left)
			n = left;
		put(buf, n);
	}
	close(fd);
	memset(block, 0, sizeof(block));
	if (st.st_size % 512)
		put(block, 512 - st.st_size % 512);
}

static void save_dmesg(void)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf = len > 0 ? malloc(len) : NULL;

	if (buf && (len = klogctl(3, buf, len)) > 0)	/* SYSLOG_ACTION_READ_ALL */
		write_file(OUT "/dmesg.txt", buf, len);
	free(buf);
}

int main(void)
{
	struct utsname u;
	char text[512], name[160];
	int fd, i;

	mnt("proc", "/proc", "proc");
	mnt("sysfs", "/sys", "sysfs");
	mnt("devtmpfs", "/dev", "devtmpfs");
	mnt("tmpfs", "/tmp", "tmpfs");
	/* No /dev/console in the initramfs: the kernel gave us no stdio. */
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setenv("HOME", "/tmp", 1);
	setenv("PATH", "/bin", 1);
	mkdir(OUT, 0755);
	uname(&u);
	snprintf(text, sizeof(text), "%s %s %s %s\n", u.sysname, u.release, u.version, u.machine);
	write_file(OUT "/kernel.txt", text, strlen(text));
	say("up: %s", text);
	read_config();

	for (i = 0; i < nperfs; i++) {
		snprintf(name, sizeof(name), "%s", labels[i]);
		do_run(name, labels[i], 0);
		snprintf(name, sizeof(name), "%s-d", labels[i]);
		do_run(name, labels[i], 1);
	}
	save_dmesg();

	disk = open(DISK, O_WRONLY);
	if (disk < 0)
		error("cannot open " DISK ": %s", strerror(errno));
	archive(OUT, "out");
	memset(block, 0, sizeof(block));
	put(block, 512);
	put(block, 512);
	if (disk >= 0 && (fsync(disk) || close(disk)))
		error("closing " DISK ": %s", strerror(errno));
	say("done, %d error(s)", errors);
	sync();
	reboot(RB_POWER_OFF);
	reboot(RB_AUTOBOOT);
	return 0;
}
