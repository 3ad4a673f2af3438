import Foundation

extension BoardInputs {
    /// What `validate` reports: the definitions, every override file of the directory (not only the selected
    /// environment's: each is meant for some deployment), each checked against the definitions, the
    /// environment's `SWITCHBOARD_…` variables that override no key or whose value does not fit its key, and the
    /// runtime store's overrides that no longer fit or whose key is gone.
    package func validationDiagnostics(at now: Double? = nil) -> (report: LoadReport, diagnostics: [Diagnostic]) {
        let report = load(now: now).report
        var diagnostics = report.diagnostics
        let paths = Array(Set(directory.map(FileOverrides.allPaths(flagsDirectory:)) ?? []).union(overrideFiles.filter {
            requiredOverrideFiles.contains($0) || FileManager.default.fileExists(atPath: $0)
        })).sorted()
        for path in paths {
            let files = FileOverrides.load(paths: [path], required: requiredOverrideFiles)
            diagnostics += report.hasErrors ? files.diagnostics : files.diagnostics(against: report.registry)
        }
        if !report.hasErrors {
            // The variables that override no key, and the values that do not parse or fit theirs: both are
            // skipped by every lookup, so a deploy's `validate` is where to hear of them.
            diagnostics += EnvironmentLayer.unknownVariables(in: environment, registry: report.registry)
            diagnostics += EnvironmentLayer.type(environment, against: report.registry).diagnostics
            // The runtime store's overrides that no lookup serves (a value that no longer fits, a key no longer
            // defined): every other command warns about them, and so does a deploy's check.
            do throws(StoreError) {
                let stored = try store.read().entries
                if !stored.isEmpty { diagnostics += Snapshot(registry: report.registry, runtime: stored).diagnostics }
            } catch {
                diagnostics.append(.warning(at: nil, "the runtime store's overrides were not checked: \(error.message)",
                                            hint: error.hint))
            }
        }
        return (report, Diagnostic.sorted(diagnostics))
    }
}
