import Foundation

/// Where the tool's output goes: standard output and standard error, or strings in tests.
/// Output is buffered and written in large pieces, so a big export is not one write per row.
final class Console {
    private let writeOut: (String) -> Void
    private let writeError: (String) -> Void
    private var buffer = ""
    /// Whether standard error is a terminal (a progress bar redraws in place there).
    let errorIsTerminal: Bool

    init(out: @escaping (String) -> Void, error: @escaping (String) -> Void, errorIsTerminal: Bool) {
        writeOut = out
        writeError = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// Standard output and standard error of this process.
    static func standard() -> Console {
        Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            error: { FileHandle.standardError.write(Data($0.utf8)) },
            errorIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    func out(_ text: String) {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    func error(_ text: String) {
        flush()
        writeError(text)
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        writeOut(buffer)
        buffer = ""
    }
}
