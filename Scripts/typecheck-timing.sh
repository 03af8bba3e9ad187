#!/usr/bin/env bash
# Type-checking time that Cairn adds to plain Swift code, and that typed SQL takes.
#
#   Scripts/typecheck-timing.sh            # after `swift build` (debug)
#
# Type-checks Scripts/typecheck/PlainSwift.swift twice, as it is and with `import Cairn` added,
# with `-debug-time-function-bodies`, and prints each function's time both ways. It fails when
# importing Cairn makes any function slower by more than LIMIT_MS (default 100 ms) and more than
# RATIO (default 3) times. A function that takes seconds with Cairn imported is what operators
# on query expressions cost when the type checker tries SQL readings of plain Swift. Then it
# prints the times of Scripts/typecheck/TypedSQL.swift's query functions, and, without failing,
# what `import StructuredQueries` costs (its `==` and `!=` on columns): the plain functions once
# more and Scripts/typecheck/DropIn.swift's queries. Each file is checked RUNS times
# (default 3) and the lowest time kept, as other work on the machine only adds time; the plain
# functions with StructuredQueries once. 30 to 60 seconds on a loaded two-core machine.
# BIN=<dir> checks against the modules and macro plugin in <dir> (a copy of an earlier build's
# `Modules` folder and `CairnMacros-tool`) instead of this build's, to compare two builds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
limit_ms="${LIMIT_MS:-100}"
ratio="${RATIO:-3}"
runs="${RUNS:-3}"
bin="${BIN:-$(cd "$root" && swift build --show-bin-path)}"
# The C modules Cairn imports: SQLite's headers are on the default path, libpq's are not.
libpq_includes=$(pkg-config --cflags-only-I libpq | sed 's/-I/-Xcc -I/g')
work="$(mktemp -d "${TMPDIR:-/tmp}/cairn-typecheck.XXXXXX")"
trap 'rm -rf "$work"' EXIT

check() { # file [runs] → "name ms" lines, the lowest of the runs per function
    local file="$1"
    for _ in $(seq "${2:-$runs}"); do
        if ! swiftc -typecheck -swift-version 6 -I "$bin/Modules" -I "$root/Sources/CSQLite" \
            -I "$root/Sources/CLibPQ" $libpq_includes \
            -load-plugin-executable "$bin/CairnMacros-tool#CairnMacros" \
            -Xfrontend -debug-time-function-bodies "$file" 2>"$work/out.txt" >/dev/null; then
            grep -A3 'error:' "$work/out.txt" >&2
            echo "$file does not type-check" >&2
            exit 1
        fi
        awk -F'\t' '$3 ~ /^global function/ {
                ms = $1; sub(/ms$/, "", ms); name = $3; sub(/^.*\(file\)\./, "", name); sub(/@.*/, "", name)
                print name, ms }' "$work/out.txt"
    done | awk '{ if (!($1 in best) || $2 < best[$1]) best[$1] = $2 } END { for (n in best) print n, best[n] }' | sort
}

cp "$root/Scripts/typecheck/PlainSwift.swift" "$work/Plain.swift"
sed 's/^import Foundation$/import Foundation\nimport Cairn/' "$root/Scripts/typecheck/PlainSwift.swift" > "$work/WithCairn.swift"
grep -q '^import Cairn$' "$work/WithCairn.swift"

check "$work/Plain.swift" > "$work/plain.txt"
check "$work/WithCairn.swift" > "$work/cairn.txt"

echo "Plain Swift, ms: without Cairn / with Cairn imported"
join "$work/plain.txt" "$work/cairn.txt" | awk -v limit="$limit_ms" -v ratio="$ratio" '
    { slow = ($3 - $2 > limit && $3 > $2 * ratio); bad += slow
      printf "  %-60s %9.1f %9.1f%s\n", $1, $2, $3, slow ? "   SLOWER" : "" }
    END { exit bad > 0 }' || { echo "Importing Cairn slows plain Swift type-checking (see SLOWER)."; exit 1; }

echo "Typed SQL, ms:"
check "$root/Scripts/typecheck/TypedSQL.swift" | awk '{ printf "  %-60s %9.1f\n", $1, $2 }'

echo "With import StructuredQueries (== and != on columns), ms, not checked:"
sed 's/^import Foundation$/import Foundation\nimport StructuredQueries/' "$root/Scripts/typecheck/PlainSwift.swift" > "$work/WithStructuredQueries.swift"
check "$work/WithStructuredQueries.swift" 1 | awk '{ printf "  %-60s %9.1f\n", $1, $2 }'
check "$root/Scripts/typecheck/DropIn.swift" | awk '{ printf "  %-60s %9.1f\n", $1, $2 }'
