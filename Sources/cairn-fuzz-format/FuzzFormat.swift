import CairnFormatCheck
import Foundation

// A libFuzzer target for the format-predicate parser: every input, as UTF-8 text, goes through
// FormatRoundTripCheck (parse, print, re-parse equal, evaluate); any crash, hang or sanitizer
// report is a bug (bad input must be an error, never a crash).
//
// `Scripts/fuzz-format.sh [SECONDS]` builds it and runs it over a copy of the committed corpus
// (Tests/CairnCoreDataTests/FuzzCorpus/format). By hand:
//
//   swift build -v -c debug --product cairn-fuzz-format --scratch-path .build-fuzz \
//       -Xswiftc -sanitize=address \
//       -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table -Xswiftc -DCAIRN_FUZZ
//   then re-run the printed `swiftc … -o …/cairn-fuzz-format` link line with
//   `-sanitize=fuzzer,address` and without `-Xlinker --defsym -Xlinker main=cairn_fuzz_format_main`
//   (`-Xswiftc -sanitize=fuzzer` on the whole build also links libFuzzer's `main` into the
//   macro plugin, which then fails to link), and run
//   .build-fuzz/debug/cairn-fuzz-format -max_total_time=300 -max_len=256 CORPUS_DIR
//
// Without `CAIRN_FUZZ` (a normal `swift build`) this is a plain executable that runs the same
// check on each argument, so the target always builds.

/// Runs ``FormatRoundTripCheck`` on `text`, trapping on a failure so the fuzzer keeps the
/// input. Returns whether `text` parsed.
@discardableResult
func exercise(_ text: String) -> Bool {
    switch FormatRoundTripCheck.check(text) {
    case .rejected: return false
    case .passed: return true
    case .failed(let why): preconditionFailure(why)
    }
}

#if CAIRN_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormatPredicate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    exercise(text)
    return 0
}
#else
@main
struct FuzzFormat {
    static func main() {
        let inputs = CommandLine.arguments.dropFirst()
        for input in inputs {
            print(exercise(input) ? "parsed: \(input)" : "rejected: \(input)")
        }
        if inputs.isEmpty { print("usage: cairn-fuzz-format FORMAT… (build with -sanitize=fuzzer for libFuzzer)") }
    }
}
#endif
