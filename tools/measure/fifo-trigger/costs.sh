#!/bin/sh
# costs.sh [REPS] -- per-operation costs of the seed's programs on this machine
# (costs.c), REPS runs (default 5) pinned to CPU 0, stderr to a scratch file.
# Prints one TSV line per run: rep, then each operation's median in ns.
set -eu
REPS=${1:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
cc -O0 -o "$SCRATCH/costs" "$HERE/costs.c"
cd "$SCRATCH"
rep=1
while [ "$rep" -le "$REPS" ]; do
    out=$(taskset -c 0 ./costs 2> "$SCRATCH/stderr.txt")
    if [ "$rep" = 1 ]; then
        printf 'rep\t%s\n' "$(printf '%s\n' "$out" | cut -f1 | paste -sd'\t' -)"
    fi
    printf '%s\t%s\n' "$rep" "$(printf '%s\n' "$out" | cut -f2 | paste -sd'\t' -)"
    rep=$((rep + 1))
done
