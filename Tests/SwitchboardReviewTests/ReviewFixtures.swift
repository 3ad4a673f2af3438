import Switchboard
import SwitchboardReview

/// A side made from YAML text: `flags/test.yaml`, and an override file when given.
func side(_ label: String, _ yaml: String, overrides: String? = nil) throws -> ReviewSide {
    try ReviewSide(label: label, environmentName: overrides == nil ? nil : "test",
                   definitions: [("flags/test.yaml", Array(yaml.utf8))],
                   overrides: overrides.map { [("flags/environments/test.yaml", Array($0.utf8))] } ?? [])
}

/// A review of two YAML texts over a population.
func review(
    _ base: String, _ head: String, baseOverrides: String? = nil, headOverrides: String? = nil,
    population: Population = Population(contexts: []), stored: [String: StoredOverride] = [:]
) throws -> Review {
    Review(base: try side("base", base, overrides: baseOverrides),
           head: try side("head", head, overrides: headOverrides), population: population, stored: stored)
}
