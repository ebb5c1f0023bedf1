#!/bin/sh
# Measure seed 002's FIFO trigger on this machine's kernel: the listener and
# the writer both pinned to CPU 0 (taskset -c 0), and as a control both
# unpinned (free to use every CPU).  Needs a C compiler (cc), taskset(1)
# (util-linux) and timeout(1).  NOT run by `cargo xtask test`.
#
# Usage: measure.sh [REPS] [SECONDS] [MODES]
#   REPS     repetitions per mode (default 5)
#   SECONDS  how long the writer runs each time (default 10)
#   MODES    "pinned unpinned" (default)
# Environment: SCRATCH (default /tmp/measure-scratch/fifo-trigger),
#              KEEP_DT=1 keeps every run's raw dt file in $SCRATCH/out,
#              NICE=N runs both programs at nice N (same for both, so their
#              relative weight is the seed's; a negative N shields them from
#              other load on a shared machine; needs root); the mode column
#              then reads e.g. pinned@nice-10.
#              SLOW=FILE appends every write over 1 ms to FILE as
#              "mode rep index dt_ms" (index = 1-based position of the write).
#
# Output (stdout): TSV rows, one per run:
#   mode rep seconds n share_over_1ms p50_ms p99_ms max_ms n_over_1ms
#   n_over_10ms n_over_50ms bursts burst_len_median burst_len_max
#   fast_run_median            (see summarize.sh)
#   pair_cpu_s                 CPU time (user + sys) that the listener and
#                              the writer used in this run, from the shell's
#                              `times`; pinned, SECONDS means they had CPU 0
#                              to themselves, less means other work ran there
#   psi_cpu_some_avg10         /proc/pressure/cpu "some avg10" right after the
#                              run (share of time some task waited for a CPU;
#                              NA if the file is missing)
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
REPS=${1:-5}
SECS=${2:-10}
MODES=${3:-"pinned unpinned"}
SCRATCH=${SCRATCH:-/tmp/measure-scratch/fifo-trigger}
CC=${CC:-cc}

mkdir -p "$SCRATCH/run" "$SCRATCH/out"
LPID=
cleanup() {
    if [ -n "$LPID" ]; then kill "$LPID" 2>/dev/null || true; wait "$LPID" 2>/dev/null || true; fi
    LPID=
    rm -f "$SCRATCH/run/test.fifo"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

# -O0: keep the listener's empty busy loop (see the comment in the source)
$CC -O0 -w -o "$SCRATCH/fifo_trigger" "$HERE/fifo_trigger.c"

# children's user + sys seconds in a file written by the shell's `times`
# (`times` must run in this shell, not in a $(...) subshell)
child_cpu() {
    awk 'NR == 2 {
        s = 0
        for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] }
        printf "%.3f\n", s }' "$1"
}

psi() {
    if [ -r /proc/pressure/cpu ]; then
        awk '$1 == "some" { sub("avg10=", "", $2); print $2 }' /proc/pressure/cpu
    else
        echo NA
    fi
}

cd "$SCRATCH/run"
for mode in $MODES; do
    case $mode in
        pinned) PIN="taskset -c 0" ;;
        unpinned) PIN= ;;
        *) echo "unknown mode $mode" >&2; exit 1 ;;
    esac
    label=$mode
    [ -z "${AUTOGROUP_NICE:-}" ] || label="$label@ag$AUTOGROUP_NICE"
    if [ -n "${NICE:-}" ]; then
        PIN="nice -n $NICE $PIN"
        label="$mode@nice$NICE"
    fi
    rep=1
    while [ "$rep" -le "$REPS" ]; do
        rm -f test.fifo
        times > "$SCRATCH/times0"
        # listener: "$@" > 1 argument; its own timeout is a safety net only
        $PIN timeout -s KILL $((SECS + 10)) "$SCRATCH/fifo_trigger" LISTENER 2>/dev/null &
        LPID=$!
        dt="$SCRATCH/out/dt-$mode-$rep.txt"
        # writer: SIGTERM after SECS seconds (default action: terminate)
        $PIN timeout -s TERM "$SECS" "$SCRATCH/fifo_trigger" 2> "$dt" || true
        cleanup
        times > "$SCRATCH/times1"
        c0=$(child_cpu "$SCRATCH/times0"); c1=$(child_cpu "$SCRATCH/times1")
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$rep" "$SECS" "$(sh "$HERE/summarize.sh" "$dt")" \
            "$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", b - a }')" "$(psi)"
        if [ -n "${SLOW:-}" ]; then
            awk -v m="$label" -v r="$rep" '$1 == "dt" { i++; if ($3 > 1) printf "%s\t%s\t%d\t%s\n", m, r, i, $3 }' "$dt" >> "$SLOW"
        fi
        [ "${KEEP_DT:-0}" = 1 ] || rm -f "$dt"
        rep=$((rep + 1))
    done
done
