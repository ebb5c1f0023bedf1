#!/bin/sh
# Measure the sparse core dump of seed 001 on this machine's kernel.
# Needs: a C compiler (cc), timeout(1), root not required unless core_pattern
# must be changed (it is only read; see below).  NOT run by `cargo xtask test`.
#
# Usage: measure.sh [REPS] [SIZES_GIB] [KILL_SIZES_GIB] [TOUCHED]
#   REPS            repetitions per size (default 5)
#   SIZES_GIB       mapping sizes in GiB (default "0 1 4 16 64 256 1024")
#                   0 = mmap of 0 bytes fails: the dump of a tiny process
#   KILL_SIZES_GIB  sizes for the SIGKILL-at-1-s probe (default "256 1024";
#                   "" for none)
#   TOUCHED         pages touched before abort(), spread evenly (default "1",
#                   the seed); every size runs with every value; a value other
#                   than 1 is appended to kind as @tN
# Environment: SCRATCH (default /tmp/measure-scratch/sparse-dump),
#              MAX_RUN_S (per-run safety timeout, default 120)
#
# Output (stdout): TSV rows, one per run:
#   kind size_gib rep <key=value pairs from sigtime>
# kind = dump (the dump runs to the end) or kill1s (SIGKILL 1 s into it),
# with @agN appended when run with AUTOGROUP_NICE=N.
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
SIZES=${2:-"0 1 4 16 64 256 1024"}
KILL_SIZES=${3-"256 1024"}
TOUCHED=${4:-1}
SCRATCH=${SCRATCH:-/tmp/measure-scratch/sparse-dump}
MAX_RUN_S=${MAX_RUN_S:-120}
CC=${CC:-cc}

mkdir -p "$SCRATCH/run"
cleanup() {
    rm -f "$SCRATCH/run/core" "$SCRATCH"/run/core.*
}
trap cleanup EXIT INT TERM

# The dump must go to a file in the scratch dir: core_pattern must be a
# plain relative name.  We do not change it; we refuse to run otherwise.
CP=$(cat /proc/sys/kernel/core_pattern)
case "$CP" in
    core|core.*|core-*) ;;
    *) echo "core_pattern is '$CP'; expected 'core' (a file in the cwd)." >&2
       echo "Set it yourself (and restore it) if you want to run this." >&2
       exit 1 ;;
esac
if [ "$(cat /proc/self/coredump_filter)" != "00000033" ]; then
    echo "note: coredump_filter is $(cat /proc/self/coredump_filter), not the default 33" >&2
fi

$CC -O2 -Wall -o "$SCRATCH/sigtime" "$HERE/../harness/sigtime.c"
$CC -O2 -Wall -o "$SCRATCH/sparse_dump" "$HERE/sparse_dump.c"

echo "# disk before: $(df -k "$SCRATCH/run" | tail -1)" >&2
run() { # kind size touched rep args...
    kind=$1 size=$2 touched=$3 rep=$4; shift 4
    [ "$touched" = 1 ] || kind="$kind@t$touched"
    [ -z "${AUTOGROUP_NICE:-}" ] || kind="$kind@ag$AUTOGROUP_NICE"
    line=$(timeout -s KILL $((MAX_RUN_S + 30)) "$SCRATCH/sigtime" -c unlimited \
        -D "$SCRATCH/run" -T "$MAX_RUN_S" "$@" -- "$SCRATCH/sparse_dump" "$size" "$touched" \
        2>/dev/null) || true
    cleanup
    printf '%s\t%s\t%s\t%s\n' "$kind" "$size" "$rep" "$line"
}
for touched in $TOUCHED; do
    for size in $SIZES; do
        rep=1
        while [ "$rep" -le "$REPS" ]; do
            run dump "$size" "$touched" "$rep"
            rep=$((rep + 1))
        done
    done
    for size in $KILL_SIZES; do
        rep=1
        while [ "$rep" -le "$REPS" ]; do
            run kill1s "$size" "$touched" "$rep" -k 1000
            rep=$((rep + 1))
        done
    done
done
echo "# disk after:  $(df -k "$SCRATCH/run" | tail -1)" >&2
