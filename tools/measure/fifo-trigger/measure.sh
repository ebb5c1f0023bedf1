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
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$rep" "$SECS" "$(sh "$HERE/summarize.sh" "$dt")" \
            "$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", b - a }')" "$(psi)"
        if [ -n "${SLOW:-}" ]; then
            awk -v m="$mode" -v r="$rep" '$1 == "dt" { i++; if ($3 > 1) printf "%s\t%s\t%d\t%s\n", m, r, i, $3 }' "$dt" >> "$SLOW"
        fi
        [ "${KEEP_DT:-0}" = 1 ] || rm -f "$dt"
        rep=$((rep + 1))
    done
done
