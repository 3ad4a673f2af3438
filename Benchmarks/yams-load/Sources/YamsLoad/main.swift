import Foundation
import Yams

// yams-load FILE...: `Yams.load` of each file, as an application reading its YAML with Yams would; prints the
// number of top-level entries so that the work is not dropped. Exits 1 when a file is not YAML.
var entries = 0
for path in CommandLine.arguments.dropFirst() {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        exit(1)
    }
    do {
        let document = try Yams.load(yaml: text)
        entries += (document as? [String: Any])?.count ?? 0
    } catch {
        FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
        exit(1)
    }
}
print(entries)
