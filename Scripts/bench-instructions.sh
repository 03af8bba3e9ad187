#!/usr/bin/env bash
# Counts the instructions each benchmark workload executes, in C and in a Cairn surface, under
# valgrind's callgrind, and prints the ratio per workload.
#
#   Scripts/bench-instructions.sh engine 2,6      # surface (engine|typedsql|swiftdata|coredata), workloads
#
# Why: on a shared VM the wall and CPU clocks move a ratio by 20-40% between runs; instruction
# counts repeat to a fraction of a percent. They leave out cache misses and waiting on I/O, so
# read them beside `cairn-bench --runs N`, not instead of it. cairn-bench marks each timed
# section (`cairn_bench_section_begin/end` in CairnBenchBaseline): callgrind zeroes its
# counters where the clock starts and dumps them, labelled "c W2" or "engine W2", where it
# stops. Needs valgrind (apt-get install valgrind). Under callgrind everything runs ~50x
# slower, so pick few workloads: W4 alone is minutes.
set -euo pipefail
surface=${1:?usage: bench-instructions.sh SURFACE WORKLOADS   e.g. engine 2,6}
workloads=${2:?usage: bench-instructions.sh SURFACE WORKLOADS   e.g. engine 2,6}
command -v valgrind >/dev/null || { echo "bench-instructions: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
cd "$(dirname "$0")/.."
swift build -c release --product cairn-bench >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 that swiftc emits; a copy without debug info keeps the
# symbols, which is all the counts need.
objcopy --strip-debug .build/release/cairn-bench "$out/cairn-bench"
valgrind --tool=callgrind --callgrind-out-file="$out/cg.%p" \
  "$out/cairn-bench" --only "$surface" --workloads "$workloads" --dir "$out/db" >"$out/bench.txt" 2>"$out/valgrind.txt" \
  || { cat "$out/valgrind.txt" >&2; exit 1; }
# Each dump names its trigger ("desc: Trigger: Client Request: engine W2") and its total count.
for f in "$out"/cg.*; do
  label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
  total=$(sed -n 's/^totals: //p; s/^summary: //p' "$f" | head -1)
  [ -n "$label" ] && [ -n "$total" ] && echo "$label $total"
done | awk -v s="$surface" '
  { split($2, w, "W"); n = w[2]; if ($1 == "c") c[n] = $3; else if ($1 == s) m[n] = $3 }
  END {
    printf "%-9s %16s %16s %8s\n", "workload", "C instr", s " instr", "ratio"
    for (n = 1; n <= 7; n++) if ((n in c) && (n in m))
      printf "W%-8d %16.0f %16.0f %7.2fx\n", n, c[n], m[n], m[n] / c[n]
  }'
grep -E "^check|x$" "$out/bench.txt" >&2 || true
