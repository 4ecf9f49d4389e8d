import ArgumentParser
import Foundation
import SwiftGenerator

/// Writes generated files into a folder, touching only those whose contents changed, so the
/// compiler does not rebuild what did not change.
struct GeneratedFileWriter {
    var directory: String
    var dryRun: Bool

    func write(_ files: [GeneratedFile]) throws {
        let folder = URL(fileURLWithPath: directory)
        if !dryRun {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                StandardError.write("\(directory): error: cannot create the output folder: \(error.localizedDescription)")
                throw ExitCode.failure
            }
        }
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            let contents = Data(file.contents.utf8)
            if (try? Data(contentsOf: url)) == contents { continue }
            if dryRun {
                print("would write \(url.path)")
                continue
            }
            do {
                try contents.write(to: url, options: .atomic)
            } catch {
                StandardError.write("\(url.path): error: cannot write: \(error.localizedDescription)")
                throw ExitCode.failure
            }
        }
    }
}
