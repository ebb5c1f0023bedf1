#!/bin/sh
# kv2tsv.sh NLEAD KEYS... < rows -- turn measure.sh rows ("lead1 ... leadN
# key=value key=value ...", tab-separated leads) into plain TSV: the NLEAD
# leading columns, then the values of KEYS in that order (NA if missing).
set -eu
n=$1; shift
awk -F'\t' -v n="$n" -v keys="$*" '
BEGIN { nk = split(keys, K, " ") }
/^#/ { next }
{
    delete m
    line = ""
    for (i = 1; i <= n; i++) line = line (i > 1 ? "\t" : "") $i
    rest = ""
    for (i = n + 1; i <= NF; i++) rest = rest " " $i
    c = split(rest, a, " ")
    for (i = 1; i <= c; i++) { p = index(a[i], "="); if (p) m[substr(a[i], 1, p - 1)] = substr(a[i], p + 1) }
    for (i = 1; i <= nk; i++) line = line "\t" ((K[i] in m) ? m[K[i]] : "NA")
    print line
}'
