#!/bin/sh
# stats.sh GROUPCOLS VALCOL < tsv -- per group (the first GROUPCOLS columns
# joined), print n, min, median, max of column VALCOL (1-based).  Lines
# starting with # and a header line whose VALCOL is not a number are skipped.
set -eu
g=$1 v=$2
awk -F'\t' -v g="$g" -v v="$v" '
/^#/ { next }
$v !~ /^-?[0-9.]+$/ { next }
{ k = $1; for (i = 2; i <= g; i++) k = k "\t" $i; print k "\t" $v }' |
LC_ALL=C sort -t "$(printf '\t')" -k1,"$g" -s |
awk -F'\t' -v g="$g" '
function flush() {
    if (cnt == 0) return
    # values arrive in input order; sort them (insertion sort, small n)
    for (i = 2; i <= cnt; i++) { x = a[i]; j = i - 1; while (j >= 1 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
    med = (cnt % 2) ? a[(cnt + 1) / 2] : (a[cnt / 2] + a[cnt / 2 + 1]) / 2
    printf "%s\t%d\t%.3f\t%.3f\t%.3f\n", key, cnt, a[1], med, a[cnt]
}
{
    k = $1; for (i = 2; i <= g; i++) k = k "\t" $i
    if (!started || k "" != key "") { flush(); key = k; cnt = 0; started = 1 }
    a[++cnt] = $(g + 1) + 0
}
END { flush() }'
