#!/usr/bin/env bash
# Where the clock goes in one benchmark workload, in C and in a Cairn surface: samples the
# process on the CPU clock with `perf record`, keeps the samples inside each side's timed
# section, and prints, side by side, how many fell in each kind of code.
#
#   Scripts/bench-samples.sh engine 6        # surface (engine|typedsql|swiftdata|coredata), one workload
#   TOP=30 Scripts/bench-samples.sh swiftdata 6   # also the 30 functions with most samples on each side
#
# Why: callgrind's instruction counts (bench-instructions.sh) repeat exactly but say nothing of
# cache misses or atomics; its cache model is a model of one CPU. Samples on the real clock
# show which kinds of work take more time than their instructions suggest. One sample is
# about 0.5 ms (1999 Hz); a category's difference of a few dozen samples is noise. Needs
# perf (apt-get install linux-perf); a VM without hardware counters still has cpu-clock.
# cairn-bench prints each timed section's bounds on CLOCK_MONOTONIC when
# CAIRN_BENCH_SECTIONS=1, and `perf record -k CLOCK_MONOTONIC` stamps samples on that clock.
set -euo pipefail
surface=${1:?usage: bench-samples.sh SURFACE WORKLOAD   e.g. engine 6}
workload=${2:?usage: bench-samples.sh SURFACE WORKLOAD   e.g. engine 6}
command -v perf >/dev/null || { echo "bench-samples: perf is not installed (apt-get install linux-perf)" >&2; exit 2; }
cd "$(dirname "$0")/.."
swift build -c release --product cairn-bench >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CAIRN_BENCH_SECTIONS=1 perf record -q -k CLOCK_MONOTONIC -F 1999 -e cpu-clock -o "$out/perf.data" \
  .build/release/cairn-bench --only "$surface" --workloads "$workload" --dir "$out/db" >"$out/bench.txt" 2>"$out/stderr.txt" \
  || { cat "$out/stderr.txt" >&2; exit 1; }
grep "^section " "$out/stderr.txt" >"$out/sections.txt" || true
grep -v "^section " "$out/stderr.txt" >&2 || true
perf script -i "$out/perf.data" -F time,ip,sym 2>/dev/null >"$out/samples.txt"
python3 - "$out/sections.txt" "$out/samples.txt" "$surface" "$workload" "${TOP:-0}" <<'PY'
import collections, re, subprocess, sys
sections_file, samples_file, surface, workload, top = sys.argv[1:6]
windows = {}
for line in open(sections_file):
    m = re.match(r'^section (.+) (\d+\.\d+) (\d+\.\d+)$', line.strip())
    if m and m.group(1) in (f'c W{workload}', f'{surface} W{workload}'):
        windows['C' if m.group(1).startswith('c ') else surface] = (float(m.group(2)), float(m.group(3)))
if len(windows) != 2:
    sys.exit(f'bench-samples: no timed sections for W{workload} in both C and {surface}')

def kind(symbol):
    s = symbol
    if s.startswith('sqlite3') or s.startswith('vdbe') or s.startswith('btree'): return 'SQLite'
    if re.search(r'malloc|_int_free|cfree|^free$|unlink_chunk|consolidate|tcache', s): return 'malloc/free'
    if 'pthread_mutex' in s: return 'pthread mutexes (SQLite serialized mode)'
    if re.search(r'^swift_(retain|release|bridgeObject|unknownObject)|RefCount|_swift_release_dealloc', s): return 'Swift retain/release'
    if re.search(r'^swift_(allocObject|slowAlloc|slowDealloc|deallocClassInstance|deallocObject|deallocUninitialized)|__deallocating_deinit', s): return 'Swift object allocation and deinit'
    if re.search(r'\$s.*(String|UTF8|_allASCII)|\$ss\d+_', s): return 'Swift standard library (String, Array)'
    if re.search(r'memmove|memcpy|strlen|strdup|memset', s): return 'libc memory/string copy'
    if s.startswith('$s'): return 'Swift: Cairn and the benchmark'
    if s in ('[unknown]', ''): return 'unknown'
    return 'kernel and other C'

counts = {side: collections.Counter() for side in windows}
functions = {side: collections.Counter() for side in windows}
for line in open(samples_file):
    m = re.match(r'^\s*(\d+\.\d+):\s+[0-9a-f]+\s+(.*)$', line.rstrip())
    if not m: continue
    t, symbol = float(m.group(1)), m.group(2).split('+')[0].strip()
    for side, (begin, end) in windows.items():
        if begin <= t <= end:
            counts[side][kind(symbol)] += 1
            functions[side][symbol] += 1
sides = ['C', surface]
totals = {side: sum(counts[side].values()) for side in sides}
ms = {side: (windows[side][1] - windows[side][0]) * 1000 for side in sides}
print(f'W{workload}: C {ms["C"]:.0f} ms, {totals["C"]} samples; {surface} {ms[surface]:.0f} ms, {totals[surface]} samples; '
      f'ratio {ms[surface] / ms["C"]:.2f}x')
print(f'{"kind of code":44s} {"C":>7s} {surface:>9s} {"diff":>7s}')
kinds = sorted(set(counts['C']) | set(counts[surface]), key=lambda k: -(counts[surface][k] - counts['C'][k]))
for k in kinds:
    print(f'{k:44s} {counts["C"][k]:7d} {counts[surface][k]:9d} {counts[surface][k] - counts["C"][k]:+7d}')
if int(top) > 0:
    for side in sides:
        rows = functions[side].most_common(int(top))
        names = subprocess.run(['swift', 'demangle', '--simplified', '--compact'], input='\n'.join(r[0] for r in rows),
                               capture_output=True, text=True).stdout.split('\n')
        print(f'\n{side}: functions with most samples')
        for (symbol, n), name in zip(rows, names):
            print(f'{n:7d} {100 * n / totals[side]:5.1f}%  {name[:110]}')
PY
