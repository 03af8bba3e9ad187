#!/usr/bin/env bash
# Fuzzes the format-predicate parser with libFuzzer for SECONDS (default 60), starting from a
# copy of the committed corpus (Tests/CairnCoreDataTests/FuzzCorpus/format), and fails when
# an input crashes, hangs or trips AddressSanitizer; the input is then saved under
# $CAIRN_FUZZ_ARTIFACTS (default .build-fuzz/artifacts/) to be added to FuzzCorpus/crashes.
#
#   Scripts/fuzz-format.sh          # 60 seconds
#   Scripts/fuzz-format.sh 600      # ten minutes
#
# The target builds in its own scratch path (.build-fuzz, or $CAIRN_FUZZ_SCRATCH) with address
# sanitizing and coverage instrumentation. libFuzzer is linked into that one executable by
# hand: `-sanitize=fuzzer` on the whole build would also link libFuzzer's `main` into the
# macro plugin, which then does not link. A toolchain without libFuzzer is reported and the
# script exits 0, so CI on such a toolchain stays green.
set -euo pipefail
seconds=${1:-60}
[[ $seconds =~ ^[0-9]+$ ]] || { echo "usage: fuzz-format.sh [SECONDS]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${CAIRN_FUZZ_SCRATCH:-$root/.build-fuzz}
artifacts=${CAIRN_FUZZ_ARTIFACTS:-$scratch/artifacts}
corpus=$root/Tests/CairnCoreDataTests/FuzzCorpus/format
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Can this toolchain link a libFuzzer target at all?
cat >"$work/probe.swift" <<'SWIFT'
@_cdecl("LLVMFuzzerTestOneInput")
public func probe(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { 0 }
SWIFT
if ! swiftc -sanitize=fuzzer,address -parse-as-library "$work/probe.swift" -o "$work/probe" >"$work/probe.log" 2>&1; then
  echo "fuzz-format: this toolchain cannot build with -sanitize=fuzzer (no libFuzzer runtime); skipping." >&2
  sed 's/^/  /' "$work/probe.log" | tail -5 >&2
  exit 0
fi

# Compile everything instrumented. The link of the target itself fails here (it has no
# `main` without libFuzzer); its command line, printed by -v, is re-run below.
echo "fuzz-format: building the instrumented target in $scratch" >&2
swift build -v -c debug --product cairn-fuzz-format --scratch-path "$scratch" \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xswiftc -DCAIRN_FUZZ >"$work/build.log" 2>&1 || true
link=$(grep -E -- '-emit-executable' "$work/build.log" | grep -E -- '-o [^ ]*/cairn-fuzz-format( |$)' | tail -1 || true)
if [[ -z $link ]]; then
  echo "fuzz-format: the build did not reach the link of cairn-fuzz-format:" >&2
  grep -E 'error:' "$work/build.log" | head -20 >&2 || tail -20 "$work/build.log" >&2
  exit 1
fi
link=${link//-Xlinker --defsym -Xlinker main=cairn_fuzz_format_main/}
link=${link//-sanitize=address/-sanitize=fuzzer,address}
(cd "$root" && eval "$link") >"$work/link.log" 2>&1 || {
  echo "fuzz-format: linking with libFuzzer failed:" >&2
  grep -v 'Cannot export local symbol' "$work/link.log" | tail -20 >&2
  exit 1
}
binary=$(sed -E 's/.* -o ([^ ]*cairn-fuzz-format)( .*|$)/\1/' <<<"$link")
[[ -x $binary ]] || { echo "fuzz-format: the link did not produce $binary" >&2; exit 1; }

# Run on a copy, so what the fuzzer learns stays out of the repository.
mkdir -p "$work/corpus" "$artifacts"
cp "$corpus"/* "$work/corpus/"
# Past crashes are seeds too: a regression shows at once.
cp "$corpus/../crashes"/* "$work/corpus/" 2>/dev/null || true
echo "fuzz-format: fuzzing for $seconds s from $(ls "$corpus" | wc -l) corpus files" >&2
if ! "$binary" -max_total_time="$seconds" -max_len=256 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$work/corpus" 2>"$work/fuzz.log"; then
  grep -E -A12 'ERROR|Fatal error|==[0-9]+==' "$work/fuzz.log" | head -40 >&2 || tail -40 "$work/fuzz.log" >&2
  echo "fuzz-format: FAILED; the input is in $artifacts (add it to Tests/CairnCoreDataTests/FuzzCorpus/crashes)" >&2
  exit 1
fi
grep -E '^(stat::number_of_executed_units|stat::new_units_added|Done )' "$work/fuzz.log" >&2 || true
echo "fuzz-format: no crash in $seconds s" >&2
