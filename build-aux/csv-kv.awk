# qsim's CSV (one header line, one row; RFC 4180: a field with a comma, a quote or a line break
# is quoted, its quotes doubled) as "key<TAB>value" lines, so that a shell script can pick
# columns by name without splitting a quoted field at its commas.  Every mode's CSV has this
# shape (docs/report.md, One schema).   Use: awk -f build-aux/csv-kv.awk FILE
function split_csv(line, f,   n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 }
            else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
NR == 1 { n = split_csv($0, h); next }
NR == 2 { split_csv($0, v); for (i = 1; i <= n; i++) printf "%s\t%s\n", h[i], v[i] }
