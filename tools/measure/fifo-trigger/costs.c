/* costs.c -- what each step of seed 002's two programs costs on this machine,
 * for the model's `today` variant (slowpath: engine/src/cases/fifo_trigger/today.rs,
 * TODAY_COSTS).  One process, no partner: every figure is the median of many calls
 * of one operation, timed with CLOCK_MONOTONIC; run it pinned (costs.sh), with
 * stderr sent to a file as measure.sh sends the writer's.  Compile with -O0 so the
 * listener's empty loop stays, as in fifo_trigger.c. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long long now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
static int cmp(const void *a, const void *b) { long long x = *(const long long *)a, y = *(const long long *)b; return (x > y) - (x < y); }
#define N 20001
static long long v[N];
static void report(const char *what, int n) { qsort(v, n, sizeof v[0], cmp); printf("%s\t%lld\n", what, v[n / 2]); }

int main(void)
{
    int i, k, fd, r;
    char b = 'x', buf[65536];
    unlink("c.fifo");
    mkfifo("c.fifo", 0700);
    /* the listener's loop, -O0 */
    for (k = 0; k < 201; k++) { long long t0 = now(); for (i = 0; i < 1000000; i++) ; v[k] = now() - t0; }
    report("loop_1e6_ns", 201);
    for (k = 0; k < N; k++) { long long t0 = now(); fd = open("c.fifo", O_WRONLY | O_NONBLOCK); v[k] = now() - t0; }
    report("open_enxio_ns", N);
    for (k = 0; k < N; k++) { long long t0 = now(); fd = open("c.fifo", O_RDONLY | O_NONBLOCK); long long t1 = now(); close(fd); v[k] = t1 - t0; }
    report("open_reader_ns", N);
    for (k = 0; k < N; k++) { fd = open("c.fifo", O_RDONLY | O_NONBLOCK); long long t0 = now(); close(fd); v[k] = now() - t0; }
    report("close_ns", N);
    r = open("c.fifo", O_RDONLY | O_NONBLOCK);
    for (k = 0; k < N; k++) { long long t0 = now(); fd = open("c.fifo", O_WRONLY | O_NONBLOCK); v[k] = now() - t0; close(fd); }
    report("open_writer_ns", N);
    fd = open("c.fifo", O_WRONLY | O_NONBLOCK);
    for (k = 0; k < N; k++) { long long t0 = now(); write(fd, &b, 1); v[k] = now() - t0; if (k % 1000 == 999) read(r, buf, sizeof buf); }
    report("write_ns", N);
    read(r, buf, sizeof buf);
    for (k = 0; k < N; k++) { struct timespec t; long long t0 = now(); clock_gettime(CLOCK_MONOTONIC, &t); v[k] = now() - t0; }
    report("clock_gettime_ns", N);
    write(fd, &b, 1);
    for (k = 0; k < N; k++) { fd_set s; struct timeval tv = { 1, 0 }; FD_ZERO(&s); FD_SET(r, &s); long long t0 = now(); select(r + 1, &s, NULL, NULL, &tv); v[k] = now() - t0; }
    report("select_ready_ns", N);
    for (k = 0; k < N; k++) { long long t0 = now(); fprintf(stderr, "dt = %f ms\n", 0.000531); v[k] = now() - t0; }
    report("fprintf_stderr_file_ns", N);
    close(fd); close(r); unlink("c.fifo");
    return 0;
}
