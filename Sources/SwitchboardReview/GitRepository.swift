import Foundation

/// A git repository read with the `git` command: the folder a path is in, and the files of a folder at a revision.
package struct GitRepository: Sendable {
    /// The folder `git` runs in (any folder inside the work tree).
    package let directory: String

    /// The repository that holds `directory`.
    ///
    /// - Throws: ``ReviewError`` when `directory` is not inside a git work tree or `git` cannot run.
    package init(containing directory: String) throws(ReviewError) {
        self.directory = directory
        do {
            _ = try run(["rev-parse", "--show-toplevel"])
        } catch {
            throw ReviewError("\(directory) is not inside a git repository (\(error.message))",
                              hint: "run in a git work tree, or compare two folders with --from DIR --to DIR")
        }
    }

    /// The path of `directory` relative to the repository's top, with a trailing `/` (empty at the top).
    package func prefix() throws(ReviewError) -> String {
        try String(decoding: run(["rev-parse", "--show-prefix"]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The full commit id a revision names.
    ///
    /// - Throws: ``ReviewError`` naming the revision when git knows no such commit.
    package func commit(_ revision: String) throws(ReviewError) -> String {
        do {
            return try String(decoding: run(["rev-parse", "--verify", "--quiet", revision + "^{commit}"]),
                              as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ReviewError("unknown revision '\(revision)'",
                              hint: "name a commit, branch or tag (git log --oneline lists commits)")
        }
    }

    /// Every file below `folder` (a path relative to the repository's top, without a trailing `/`) at a revision,
    /// with its bytes, in byte order of their paths; the paths are relative to the repository's top.
    package func files(
        at revision: String, under folder: String
    ) throws(ReviewError) -> [(path: String, bytes: [UInt8])] {
        let listing = try run(["ls-tree", "-r", "-z", "--full-tree", revision, "--", folder])
        var blobs: [(path: String, id: String)] = []
        for record in listing.split(separator: 0) {
            // "<mode> blob <id>\t<path>"
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = record[record.startIndex..<tab].split(separator: UInt8(ascii: " "))
            guard fields.count == 3, fields[1].elementsEqual("blob".utf8) else { continue }
            let path = String(decoding: record[(tab + 1)...], as: UTF8.self)
            blobs.append((path, String(decoding: fields[2], as: UTF8.self)))
        }
        blobs.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        guard !blobs.isEmpty else { return [] }
        // One `cat-file --batch` for every blob: one process, not one per file.
        let output = try run(["cat-file", "--batch"], input: blobs.map { $0.id + "\n" }.joined())
        var files: [(path: String, bytes: [UInt8])] = []
        var index = output.startIndex
        for blob in blobs {
            // "<id> blob <size>\n<bytes>\n"
            guard let newline = output[index...].firstIndex(of: UInt8(ascii: "\n")),
                  let size = output[index..<newline].split(separator: UInt8(ascii: " ")).last
                      .flatMap({ Int(String(decoding: $0, as: UTF8.self)) }),
                  newline + 1 + size <= output.endIndex
            else { throw ReviewError("git cat-file gave an unreadable answer for \(blob.path) at \(revision)") }
            files.append((blob.path, Array(output[(newline + 1)..<(newline + 1 + size)])))
            index = newline + 1 + size + 1
        }
        return files
    }

    /// Runs `git` with arguments in ``directory`` and returns its standard output.
    ///
    /// - Throws: ``ReviewError`` with git's first line of standard error when it exits non-zero.
    private func run(_ arguments: [String], input: String? = nil) throws(ReviewError) -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe(), inputPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        do {
            try process.run()
        } catch {
            throw ReviewError("cannot run git: \(error.localizedDescription)", hint: "install git")
        }
        if let input {
            // Written from another thread, so a large answer on stdout never blocks git while it reads its input.
            let handle = inputPipe.fileHandleForWriting
            let bytes = Data(input.utf8)
            Thread.detachNewThread {
                handle.write(bytes)
                try? handle.close()
            }
        }
        let errors = ErrorCollector(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = errors.text().split(separator: "\n").first.map(String.init) ?? "git \(arguments[0]) failed"
            throw ReviewError(message)
        }
        return [UInt8](stdout)
    }
}

/// Reads a pipe to its end on a thread of its own, so a process writing much to both of its pipes never blocks.
private final class ErrorCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
