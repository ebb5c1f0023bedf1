/* sigtime.c -- time how long a process takes to die, with CLOCK_MONOTONIC.
 *
 * Part of slowpath's measuring scripts (tools/measure/).  Not built or run
 * by `cargo xtask test`.
 *
 * Usage: sigtime [options] -- program [args...]
 *   -s SIG   after the child is ready (+ -d ms), send SIG (a number) to it;
 *            0 = send nothing, the child dies by itself (e.g. abort())
 *   -d MS    delay between "ready" and the signal (default 0)
 *   -k MS    send SIGKILL MS milliseconds after "ready" (latency probe);
 *            -1 = never (default)
 *   -c LIM   RLIMIT_CORE for the child: "0" or "unlimited" (default 0)
 *   -D DIR   child's working directory (where a `core` file lands)
 *   -T SEC   safety timeout: SIGKILL the child's process group after SEC s
 *            counted from ready (default 120)
 *   -q       child's stdout and stderr go to /dev/null (default: the
 *            child's stdout goes to our stderr, so that stdout carries only
 *            the result line)
 *
 * The child:
 *   - runs in its own process group (so it can be cleaned up as a group),
 *   - gets SIGINT, SIGQUIT, SIGABRT, SIGTERM reset to SIG_DFL and an empty
 *     signal mask (a background job of a non-interactive shell would
 *     otherwise inherit SIGINT/SIGQUIT as ignored),
 *   - gets PR_SET_PDEATHSIG(SIGKILL), so it dies if this harness dies,
 *   - finds the write end of a "ready" pipe on fd 3 and must write one
 *     byte to it when it is ready to be signalled.
 *
 * Timing: t_start = CLOCK_MONOTONIC right before fork(); t_ready = CLOCK_MONOTONIC right after the parent reads the ready
 * byte; t_sig = right before kill(); t_exit = right after waitpid() returns
 * (the dying process's core dump, if any, happens before it becomes a
 * zombie, so it is inside the interval).
 *
 * Output: one line of key=value pairs on stdout (times in ms).  After the
 * child is reaped, a `core` or `core.<pid>` file in DIR is stat()ed
 * (apparent size and allocated bytes are printed) and deleted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *m)
{
    perror(m);
    exit(2);
}

/* wait up to ms (<0: forever) for the child to exit; 1 if it did */
static int wait_exit(int pidfd, double ms)
{
    struct pollfd p = { .fd = pidfd, .events = POLLIN };
    int r;
    do {
        r = poll(&p, 1, ms < 0 ? -1 : (int)ms);
    } while (r < 0 && errno == EINTR);
    if (r < 0)
        die("poll(pidfd)");
    return r > 0;
}

int main(int argc, char *argv[])
{
    int sig = 0, opt, quiet = 0;
    double delay = 0, killafter = -1, tmo = 120;
    const char *core = "0", *dir = NULL;

    while ((opt = getopt(argc, argv, "+s:d:k:c:D:T:q")) != -1) {
        switch (opt) {
        case 's': sig = atoi(optarg); break;
        case 'd': delay = atof(optarg); break;
        case 'k': killafter = atof(optarg); break;
        case 'c': core = optarg; break;
        case 'D': dir = optarg; break;
        case 'T': tmo = atof(optarg); break;
        case 'q': quiet = 1; break;
        default:
            fprintf(stderr, "usage: see the comment at the top of sigtime.c\n");
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "sigtime: no program\n");
        return 2;
    }

    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0)
        die("pipe");

    pid_t parent = getpid();
    double t_start = now_ms();
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        struct rlimit rl;
        sigset_t none;
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(3);
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        rl.rlim_cur = rl.rlim_max =
            strcmp(core, "unlimited") == 0 ? RLIM_INFINITY : strtoull(core, 0, 10);
        if (setrlimit(RLIMIT_CORE, &rl) < 0)
            die("setrlimit(RLIMIT_CORE)");
        if (dir && chdir(dir) < 0)
            die("chdir");
        if (quiet) {
            int nul = open("/dev/null", O_WRONLY);
            if (nul < 0)
                die("open(/dev/null)");
            dup2(nul, 1);
            dup2(nul, 2);
            if (nul > 3)
                close(nul);
        } else {
            dup2(2, 1);
        }
        if (dup2(pfd[1], 3) < 0) /* dup2 clears O_CLOEXEC on fd 3 */
            die("dup2");
        execv(argv[optind], &argv[optind]);
        die("execv");
    }
    setpgid(pid, pid); /* also in the parent: no race on the group */
    close(pfd[1]);

    int pidfd = syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0)
        die("pidfd_open");

    /* wait for the ready byte (or for the child to die first) */
    char b;
    struct pollfd rp = { .fd = pfd[0], .events = POLLIN };
    if (poll(&rp, 1, (int)(tmo * 1000)) <= 0) {
        killpg(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fprintf(stderr, "sigtime: child never became ready\n");
        return 1;
    }
    ssize_t n = read(pfd[0], &b, 1);
    double t_ready = now_ms();
    if (n != 1) {
        fprintf(stderr, "sigtime: child died before ready\n");
        /* fall through: still reap and report */
    }

    double t_sig = -1, t_kill = -1, t_exit;
    int died_early = 0, timed_out = 0;

    if (sig > 0) {
        if (delay > 0 && wait_exit(pidfd, delay))
            died_early = 1;
        if (!died_early) {
            t_sig = now_ms();
            if (kill(pid, sig) < 0)
                die("kill");
        }
    }
    if (killafter >= 0 && !died_early) {
        double left = t_ready + killafter - now_ms();
        if (left > 0 && wait_exit(pidfd, left))
            died_early = 1;
        if (!died_early) {
            t_kill = now_ms();
            if (kill(pid, SIGKILL) < 0)
                die("kill(SIGKILL)");
        }
    }
    if (!wait_exit(pidfd, tmo * 1000 - (now_ms() - t_ready))) {
        timed_out = 1;
        killpg(pid, SIGKILL);
    }

    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0)
        die("wait4");
    t_exit = now_ms();
    killpg(pid, SIGKILL); /* anything left in the group (should be none) */

    /* the core file, if any */
    long long core_size = -1, core_alloc = -1;
    char path[4096];
    const char *d = dir ? dir : ".";
    const char *names[2] = { "core", NULL };
    char withpid[64];
    snprintf(withpid, sizeof withpid, "core.%d", (int)pid);
    names[1] = withpid;
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", d, names[i]);
        if (stat(path, &sb) == 0) {
            core_size = sb.st_size;
            core_alloc = (long long)sb.st_blocks * 512;
            unlink(path);
        }
    }

    printf("pid=%d status=%s sig=%d coredumped=%d",
           (int)pid,
           WIFSIGNALED(st) ? "signaled" : WIFEXITED(st) ? "exited" : "other",
           WIFSIGNALED(st) ? WTERMSIG(st) : WIFEXITED(st) ? WEXITSTATUS(st) : -1,
           WIFSIGNALED(st) ? (WCOREDUMP(st) ? 1 : 0) : 0);
    printf(" start_to_ready_ms=%.3f", t_ready - t_start);
    printf(" ready_to_exit_ms=%.3f", t_exit - t_ready);
    printf(" signal_to_exit_ms=%.3f", t_sig >= 0 ? t_exit - t_sig : -1.0);
    printf(" kill_to_exit_ms=%.3f", t_kill >= 0 ? t_exit - t_kill : -1.0);
    printf(" ready_to_kill_ms=%.3f", t_kill >= 0 ? t_kill - t_ready : -1.0);
    printf(" died_before_signal=%d timed_out=%d", died_early, timed_out);
    printf(" utime_ms=%.3f stime_ms=%.3f",
           ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3,
           ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3);
    printf(" core_apparent_bytes=%lld core_allocated_bytes=%lld\n",
           core_size, core_alloc);
    return timed_out ? 1 : 0;
}
