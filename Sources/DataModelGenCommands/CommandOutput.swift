import ArgumentParser
import Foundation
import GeneratorCommand

/// Where a command's text goes: standard output, or the file its `--output` names, written whole
/// (atomically) so a failed run never leaves half a file.
enum CommandOutput {
    /// Prints `text`, or writes it to `path`; a file that cannot be written is reported as
    /// `PATH: error: cannot write the WHAT: …` and ends the command.
    static func emit(_ text: String, to path: String?, what: String) throws {
        guard let path else { return print(text, terminator: "") }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            StandardError.write("\(path): error: cannot write the \(what): \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }
}
