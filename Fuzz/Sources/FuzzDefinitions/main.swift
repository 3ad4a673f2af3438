import FuzzSupport
@testable import Switchboard

/// A fixed day, so an input that crashes crashes again.
let today = Day(year: 2026, month: 6, day: 1)

// The fuzz target: loads the input as a definitions file in each format Switchboard reads by name.
fuzz { bytes in
    for path in ["flags/fuzz.yaml", "flags/fuzz.flagd.json", "flags/fuzz.flagd.yaml"] {
        let report = DefinitionLoader.load(sources: [(path: path, bytes: bytes)], today: today)
        // Rendering every diagnostic exercises the locations and hints the loader produced.
        for diagnostic in report.diagnostics { _ = diagnostic.description }
    }
}
