/* fifo_trigger.c -- the program from seed 002 (Haakon Riiser, LKML, Jan
 * 2004: "Busy-wait delay in qmail 1.03 after upgrading to Linux 2.6"),
 * adapted for slowpath's measurements.
 *
 * Start it with an argument to run the listener, without to run the writer.
 *
 * Changes from the seed, and only these (marked "slowpath:" below):
 *   - the writer times write() with clock_gettime(CLOCK_MONOTONIC) instead
 *     of gettimeofday(): nanosecond rather than microsecond resolution, and
 *     immune to clock steps; it prints the same "dt = %f ms" line;
 *   - nothing else.  The listener's empty busy loop (1,000,000 iterations)
 *     must survive compilation: the measuring script compiles with -O0.
 */
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void run_listener(void)
{
        int i;
        int fd;
        fd_set rfds, wfds;
        struct timeval tv = { 1477, 355000 };

        mkfifo("test.fifo", 0700);

        for (;;) {
                if ((fd = open("test.fifo", O_RDONLY | O_NONBLOCK)) < 0) {
                        perror("open test.fifo");
                        exit(1);
                }
                FD_ZERO(&rfds);
                FD_SET(fd, &rfds);
                FD_ZERO(&wfds);
                switch (select(fd + 1, &rfds, &wfds, NULL, &tv)) {
                case 0:
                        fprintf(stderr, "select timed out\n");
                        exit(0);
                case -1:
                        perror("select()");
                        exit(1);
                }
                if (close(fd) < 0) {
                        perror("close");
                }
                /* Do some work before returning to select() */
                for (i = 0; i < 1000000; i++)
                        ;
        }
}

void run_writer(void)
{
        struct timespec tv1, tv2;       /* slowpath: was struct timeval */
        int fd;

        for (;;) {
                while ((fd = open("test.fifo", O_WRONLY | O_NONBLOCK)) < 0)
                        ;
                clock_gettime(CLOCK_MONOTONIC, &tv1);   /* slowpath */
                if (write(fd, &fd, 1) == 1) {
                        clock_gettime(CLOCK_MONOTONIC, &tv2);   /* slowpath */
                        fprintf(stderr, "dt = %f ms\n",
                                (tv2.tv_sec - tv1.tv_sec) * 1000.0 +
                                (tv2.tv_nsec - tv1.tv_nsec) / 1e6);  /* slowpath */
                }
                if (close(fd) < 0) {
                        perror("close");
                }
        }
}

int main(int argc, char *argv[])
{
        signal(SIGPIPE, SIG_IGN);
        if (argc > 1) {
                run_listener();
        }
        run_writer();
        return 0;
}
