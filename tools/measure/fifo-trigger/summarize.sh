#!/bin/sh
# summarize.sh DTFILE -- read the writer's "dt = X ms" lines (in order) and print
# one tab-separated line:
#   n share_over_1ms p50_ms p99_ms max_ms n_over_1ms n_over_10ms n_over_50ms
#   bursts burst_len_median burst_len_max fast_run_median
# Percentiles and medians are nearest-rank on the sorted values.  A burst is a
# maximal run of consecutive writes over 1 ms; a fast run is the number of
# writes of at most 1 ms before a burst (the part before the first burst
# counts, the tail after the last one does not).
set -eu
f=$1
tmp=${TMPDIR:-/tmp}/summarize.$$
trap 'rm -f "$tmp".*' EXIT
awk '$1 == "dt" { print $3 }' "$f" > "$tmp.v"
LC_ALL=C sort -g "$tmp.v" > "$tmp.sorted"
awk -v B="$tmp.bursts" -v F="$tmp.fast" '
{ if ($1 > 1) { if (bl == 0) { print fast + 0 > F; fast = 0 } bl++ }
  else { if (bl) { print bl > B; bl = 0 } fast++ } }
END { if (bl) print bl > B; close(B); close(F) }' "$tmp.v"
touch "$tmp.bursts" "$tmp.fast"
LC_ALL=C sort -n "$tmp.bursts" > "$tmp.bs"
LC_ALL=C sort -n "$tmp.fast" > "$tmp.fs"
med() { awk '{ v[NR] = $1 } END { if (NR == 0) { print "NA"; exit } i = int(0.5 * NR); if (i < 0.5 * NR) i++; print v[i] }' "$1"; }
mx() { awk 'END { print (NR ? $1 : "NA") }' "$1"; }
stats=$(awk '
{ v[NR] = $1; if ($1 > 1) o1++; if ($1 > 10) o10++; if ($1 > 50) o50++ }
END {
    n = NR
    if (n == 0) { print "0\tNA\tNA\tNA\tNA\t0\t0\t0"; exit }
    i50 = int(0.50 * n); if (i50 < 0.50 * n) i50++
    i99 = int(0.99 * n); if (i99 < 0.99 * n) i99++
    printf "%d\t%.6f\t%.6f\t%.6f\t%.6f\t%d\t%d\t%d\n", n, (o1 + 0) / n,
        v[i50], v[i99], v[n], o1 + 0, o10 + 0, o50 + 0
}' "$tmp.sorted")
printf '%s\t%s\t%s\t%s\t%s\n' "$stats" "$(wc -l < "$tmp.bs" | tr -d ' ')" "$(med "$tmp.bs")" "$(mx "$tmp.bs")" "$(med "$tmp.fs")"
