#!/usr/bin/env bash
# Counts the instructions each benchmark workload executes, in C and in a Cairn surface, under
# valgrind's callgrind, and prints the ratio per workload.
#
#   Scripts/bench-instructions.sh engine 2,6      # surface (engine|typedsql|swiftdata|coredata), workloads
#   CACHE_SIM=1 Scripts/bench-instructions.sh engine 6   # also simulated cache misses and branch mispredictions
#
# Why: on a shared VM the wall and CPU clocks move a ratio by 20-40% between runs; instruction
# counts repeat to a fraction of a percent. They leave out cache misses and waiting on I/O, so
# read them beside `cairn-bench --runs N`, not instead of it. cairn-bench marks each timed
# section (`cairn_bench_section_begin/end` in CairnBenchBaseline): callgrind zeroes its
# counters where the clock starts and dumps them, labelled "c W2" or "engine W2", where it
# stops. Needs valgrind (apt-get install valgrind). Under callgrind everything runs ~50x
# slower, so pick few workloads: W4 alone is minutes.
#
# CACHE_SIM=1 adds callgrind's cache and branch simulation (about twice slower again) and
# prints, per workload, the simulated L1 instruction misses (I1mr), L1 data read and write
# misses (D1mr, D1mw) and mispredicted conditional and indirect branches (Bcm, Bim) of both
# sides. They are a model of one CPU, not a measurement; they say where a clock ratio may
# part from the instruction ratio (a loop whose code outgrows the L1 instruction cache).
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
simulate=()
[ "${CACHE_SIM:-0}" = 1 ] && simulate=(--cache-sim=yes --branch-sim=yes)
valgrind --tool=callgrind "${simulate[@]}" --callgrind-out-file="$out/cg.%p" \
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
    c[8] = c[2]  # W8, a tuple select of the W2 rows, is compared with C W2
    for (n = 1; n <= 13; n++) if ((n in c) && (n in m))
      printf "W%-8d %16.0f %16.0f %7.2fx\n", n, c[n], m[n], m[n] / c[n]
  }'
if [ "${CACHE_SIM:-0}" = 1 ]; then
  for f in "$out"/cg.*; do
    label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
    [ -n "$label" ] || continue
    paste -d' ' <(sed -n 's/^events: //p' "$f" | tr ' ' '\n') \
                 <(sed -n 's/^summary: //p; s/^totals: //p' "$f" | head -1 | tr ' ' '\n') |
      awk -v l="$label" '$1 ~ /^(I1mr|D1mr|D1mw|Bcm|Bim)$/ { printf "%s %s %s\n", l, $1, $2 }'
  done | sort -k2,2 -k1,1 | awk '
    { key = $2 " " $3; split($2, w, "W"); n = w[2]; if ($1 == "c") c[n, $3] = $4; else m[n, $3] = $4; seen[n] = 1 }
    END {
      printf "\n%-9s %-6s %16s %16s\n", "workload", "event", "C", "surface"
      for (n = 1; n <= 13; n++) if (n in seen)
        for (i = 1; i <= 5; i++) {
          split("I1mr D1mr D1mw Bcm Bim", e, " ")
          if ((n, e[i]) in c) printf "W%-8d %-6s %16.0f %16.0f\n", n, e[i], c[n, e[i]], m[n, e[i]]
        }
    }'
fi
grep -E "^check|x$" "$out/bench.txt" >&2 || true
