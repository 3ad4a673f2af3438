import FuzzSupport
@testable import Switchboard
import YAML

/// Definitions of every type for the overrides to be checked against.
let registry = DefinitionLoader.load(sources: [(path: "flags/app.yaml", bytes: Array("""
    namespace: app
    flags:
      new_flow: { type: bool, default: false }
      color: { type: string, variants: { control: blue, treatment: green }, default: control }
    preferences:
      upload.max_mb: { type: int, default: 25, min: 1, max: 500 }
      theme: { type: string, values: [system, light, dark], default: system }
      ratio: { type: double, default: 0.5 }
      code: { type: string, default: ab, pattern: "^[a-z]+$" }
      tags: { type: list, default: [] }
      limits: { type: object, default: {} }
    """.utf8))], today: Day(year: 2026, month: 6, day: 1)).registry

// The fuzz target: reads the input as an override file and checks it against the definitions.
fuzz { bytes in
    var layer = FileOverrides()
    layer.read(YAMLParser.parse(bytes, file: "flags/local.overrides.yaml"), path: "flags/local.overrides.yaml")
    for diagnostic in layer.diagnostics(against: registry) { _ = diagnostic.description }
}
