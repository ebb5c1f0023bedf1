/* thread_share_RLIMIT_CPU.c -- the program from seed 000 (Michael Kerrisk,
   LKML, 22 Sep 2005: "Process with many NPTL threads terminates slowly on
   core dump signal"), adapted for slowpath's measurements.

   Usage: thread_share_RLIMIT_CPU [CPU-soft-limit [num-threads [pause]]]

   Changes from the seed, and only these (marked "slowpath:" below):
     - after creating all threads, main() writes one byte to fd 3 if fd 3
       is open (the "ready" pipe of tools/measure/harness/sigtime.c);
     - system("uname -a; date") is kept but its output, like the threads'
       "Thread N cpu=" lines, is discarded by the harness (-q);
     - an optional third argument "pause" makes every thread call pause()
       after its usleep() instead of spinning: the seed's own commented-out
       `// pause();` line, the variant the reporter also tried ("even if I
       make the threads pause(), the problem is still observable");
     - (int) x / (void *) tn casts go through long, to compile cleanly on
       64-bit; the behaviour is the same.
   The measuring script passes a CPU soft limit of 100000 s: with N threads
   spinning on 2 CPUs the seed's default of 3 s would itself deliver
   SIGXCPU (a core-dump signal) within 1.5 s and spoil the measurement.
   Compile with -O0 so that the threads' empty `for` loop (mostly user-mode
   CPU time, as the seed intends) is not optimised away.
*/
#include <sys/types.h>
#include <sys/times.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>     /* slowpath: strcmp */

static int threadsPause;        /* slowpath: argv[3] == "pause" */

#define errExit(msg)            { perror(msg); exit(EXIT_FAILURE); }

#define errExitEN(en, msg)      { errno = en; perror(msg); \
                                  exit(EXIT_FAILURE); }

static void *
tfunc(void *x)
{
    struct tms tms;
    int cpuCentisecs, prevCpu, j;

    usleep(20000);      /* Give main() a small chance to create other
                           threads before we start consuming CPU time */

    // pause();
    if (threadsPause)           /* slowpath: the seed's commented-out line */
        for (;;)
            pause();

   /* Following consumes CPU time and prints messages
       allowing us to track CPU consumption */

    prevCpu = 0;
    for (;;) {
        for (j = 0; j < 100000; j++)
            continue;           /* So main loop consumes mostly
                                   user-mode CPU time */

        if (times(&tms) == -1) errExit("times");
        cpuCentisecs = (tms.tms_utime + tms.tms_stime) * 100 /
                        sysconf(_SC_CLK_TCK);
        if (cpuCentisecs > prevCpu + 20) {
            printf("Thread %d cpu=%0.2f\n", (int) (long) x,   /* slowpath: via long */
                    cpuCentisecs / 100.0);
            prevCpu = cpuCentisecs;
        }
    }
    return NULL;
}

int
main(int argc, char *argv[])
{
    pthread_t thr;
    int s, numThreads, tn;
    struct rlimit rlim;

    system("uname -a; date");

    if (getrlimit(RLIMIT_CPU, &rlim) == -1) errExit("getrlimit");
    rlim.rlim_cur = (argc > 1) ? atoi(argv[1]) : 3;
    if (setrlimit(RLIMIT_CPU, &rlim) == -1)
        errExit("setrlimit-ORIG_LIMIT");

    if (getrlimit(RLIMIT_CPU, &rlim) == -1) errExit("getrlimit");
    printf("Main thread changed soft CPU resource limit to: %ld\n",
            (long) rlim.rlim_cur);

    numThreads = (argc > 2) ? atoi(argv[2]) : 2;
    threadsPause = (argc > 3) && strcmp(argv[3], "pause") == 0;  /* slowpath */

    for (tn = 0; tn < numThreads; tn++) {
        s = pthread_create(&thr, NULL, tfunc, (void *) (long) tn); /* slowpath: via long */
        if (s != 0) errExitEN(s, "pthread_create");
    } 

    { char b = 'r'; (void)!write(3, &b, 1); }   /* slowpath: ready */

    pause();
} /* main */
