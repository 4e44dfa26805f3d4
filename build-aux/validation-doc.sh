#!/bin/sh
# Puts `qsim validate --format markdown` between the markers of docs/validation.md, so that the
# page shows the table as the model answers it today (a test checks that it does).
set -e
qsim=${1:-./qsim}
doc=${2:-docs/validation.md}
begin='<!-- begin: qsim validate --format markdown -->'
end='<!-- end: qsim validate -->'
table=$(mktemp)
"$qsim" validate --format markdown > "$table" || true   # a failing row is shown, not hidden
awk -v b="$begin" -v e="$end" -v t="$table" '
    $0 == b { print; while ((getline line < t) > 0) print line; skip = 1; next }
    $0 == e { skip = 0 }
    !skip { print }' "$doc" > "$doc.tmp"
mv "$doc.tmp" "$doc"
rm -f "$table"
