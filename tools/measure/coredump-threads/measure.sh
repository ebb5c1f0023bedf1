#!/bin/sh
# Measure how long a process with N spinning threads (seed 000) takes to die
# on SIGQUIT (RLIMIT_CORE 0), on SIGQUIT with a core written (RLIMIT_CORE
# unlimited; the core file lands in the scratch dir and is deleted), and on
# SIGINT.  Needs a C compiler (cc) with pthreads and timeout(1).
# NOT run by `cargo xtask test`.
#
# Usage: measure.sh [REPS] [NS] [DELAY_MS] [THREADS]
#   REPS      repetitions of every (N, mode) pair (default 7)
#   NS        thread counts (default "0 20 100 1000")
#   DELAY_MS  time between "all threads created" and the signal, so that
#             every thread is past its usleep(20000) and spinning (default 500)
#   THREADS   "spin" (the seed as run by its reporter, default) or "pause"
#             (the threads sleep in pause(); the seed's commented-out line)
# Environment: SCRATCH (default /tmp/measure-scratch/coredump-threads)
#              PIN=CPU pins the measured program (not the timing harness) to
#              that CPU with taskset(1), like the seed's one-CPU machine; the
#              rows then say threads=spin@cpuCPU (or pause@cpuCPU)
#
# Output (stdout): TSV rows, one per run:
#   threads mode n rep <key=value pairs from sigtime>
# mode: quit_core0 | quit_core | int.  The runs are interleaved (every mode
# and N once per repetition) so that slow drift in background load spreads
# over all of them.
set -eu
# AUTOGROUP_NICE=N: run in a new session (setsid), hence a new scheduler
# autogroup of its own, and set that autogroup's nice to N
# (/proc/self/autogroup).  With sched_autogroup_enabled=1 every session's
# tasks share one weight against other sessions, so plain nice(1) cannot
# shield a measurement from other people's jobs; this can.  Nothing global
# changes: the autogroup disappears with the session.  Needs root for N < 0.
if [ -n "${AUTOGROUP_NICE:-}" ] && [ -z "${_MEASURE_IN_SETSID:-}" ]; then
    _MEASURE_IN_SETSID=1 exec setsid -w sh "$0" "$@"
fi
if [ -n "${AUTOGROUP_NICE:-}" ]; then
    echo "$AUTOGROUP_NICE" > /proc/self/autogroup
fi
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${1:-7}
NS=${2:-"0 20 100 1000"}
DELAY_MS=${3:-500}
THREADS=${4:-spin}
case $THREADS in spin) TARG= ;; pause) TARG=pause ;; *) echo "THREADS: spin|pause" >&2; exit 1 ;; esac
PINCMD=
LABEL=$THREADS
[ -z "${AUTOGROUP_NICE:-}" ] || LABEL="$LABEL@ag$AUTOGROUP_NICE"
if [ -n "${PIN:-}" ]; then
    PINCMD="$(command -v taskset) -c $PIN"
    LABEL="$LABEL@cpu$PIN"
fi
SCRATCH=${SCRATCH:-/tmp/measure-scratch/coredump-threads}
CC=${CC:-cc}

mkdir -p "$SCRATCH/run"
cleanup() {
    rm -f "$SCRATCH/run/core" "$SCRATCH"/run/core.*
}
trap cleanup EXIT INT TERM

CP=$(cat /proc/sys/kernel/core_pattern)
case "$CP" in
    core|core.*|core-*) ;;
    *) echo "core_pattern is '$CP'; expected 'core' (a file in the cwd)." >&2
       echo "Set it yourself (and restore it) if you want to run this." >&2
       exit 1 ;;
esac

$CC -O2 -Wall -o "$SCRATCH/sigtime" "$HERE/../harness/sigtime.c"
# -O0: keep the seed's empty busy loop (see the comment in the source)
$CC -O0 -w -pthread -o "$SCRATCH/thread_share_RLIMIT_CPU" "$HERE/thread_share_RLIMIT_CPU.c"

echo "# disk before: $(df -k "$SCRATCH/run" | tail -1)" >&2
psi() { # /proc/pressure/cpu "some avg10": share of time some task waited for a CPU
    if [ -r /proc/pressure/cpu ]; then
        awk '$1 == "some" { sub("avg10=", "", $2); print $2 }' /proc/pressure/cpu
    else
        echo NA
    fi
}
run() { # mode n rep sig core
    line=$(timeout -s KILL 90 "$SCRATCH/sigtime" -q -s "$4" -d "$DELAY_MS" -c "$5" \
        -D "$SCRATCH/run" -T 60 -- $PINCMD "$SCRATCH/thread_share_RLIMIT_CPU" 100000 "$2" $TARG \
        2>/dev/null) || true
    cleanup
    printf '%s\t%s\t%s\t%s\t%s psi_cpu_some_avg10=%s\n' "$LABEL" "$1" "$2" "$3" "$line" "$(psi)"
}
rep=1
while [ "$rep" -le "$REPS" ]; do
    for n in $NS; do
        run quit_core0 "$n" "$rep" 3 0          # SIGQUIT = 3
        run quit_core  "$n" "$rep" 3 unlimited
        run int        "$n" "$rep" 2 0          # SIGINT = 2
    done
    rep=$((rep + 1))
done
echo "# disk after:  $(df -k "$SCRATCH/run" | tail -1)" >&2
