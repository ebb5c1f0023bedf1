#!/bin/sh
# summarize.sh DTFILE -- read the writer's "dt = X ms" lines, print
#   n share_over_1ms p50_ms p99_ms max_ms n_over_1ms n_over_10ms n_over_50ms
# (tab-separated; percentiles are nearest-rank on the sorted values).
set -eu
awk '$1 == "dt" { print $3 }' "$1" | LC_ALL=C sort -g > "$1.sorted"
awk '
{ v[NR] = $1; if ($1 > 1) o1++; if ($1 > 10) o10++; if ($1 > 50) o50++ }
END {
    n = NR
    if (n == 0) { print "0\tNA\tNA\tNA\tNA\t0\t0\t0"; exit }
    i50 = int(0.50 * n); if (i50 < 0.50 * n) i50++
    i99 = int(0.99 * n); if (i99 < 0.99 * n) i99++
    printf "%d\t%.6f\t%.6f\t%.6f\t%.6f\t%d\t%d\t%d\n", n, (o1 + 0) / n,
        v[i50], v[i99], v[n], o1 + 0, o10 + 0, o50 + 0
}' "$1.sorted"
rm -f "$1.sorted"
