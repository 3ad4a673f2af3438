/// A semantic version as flagd's `sem_ver` operator reads it.
///
/// flagd accepts what Go's `golang.org/x/mod/semver` accepts, with the `v` optional:
/// `1.2.3`, `v1.2.3`, `V1.2.3`, `1.2.3-beta.1+build.5`, and the shorthands `1` (= `1.0.0`) and `1.2`
/// (= `1.2.0`), which take no pre-release or build suffix. Numbers have no leading zeros. Build metadata is
/// kept but never compared.
package struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// One dot-separated pre-release identifier.
    package enum Identifier: Sendable, Hashable, Comparable {
        /// All digits: compared numerically, and lower than any alphanumeric identifier.
        case numeric(UInt64)
        /// Anything else: compared by ASCII order.
        case alphanumeric(String)

        /// Numeric identifiers sort before alphanumeric ones (semver 2.0.0, rule 11).
        package static func < (lhs: Identifier, rhs: Identifier) -> Bool {
            switch (lhs, rhs) {
            case (.numeric(let l), .numeric(let r)): l < r
            case (.numeric, .alphanumeric): true
            case (.alphanumeric, .numeric): false
            case (.alphanumeric(let l), .alphanumeric(let r)): l.utf8.lexicographicallyPrecedes(r.utf8)
            }
        }
    }

    /// The major version.
    package var major: UInt64
    /// The minor version (0 when written as a shorthand).
    package var minor: UInt64
    /// The patch version (0 when written as a shorthand).
    package var patch: UInt64
    /// Pre-release identifiers; empty for a release.
    package var prerelease: [Identifier]
    /// Build metadata identifiers; ignored by comparisons.
    package var build: [String]

    /// Creates a version from its parts.
    package init(
        major: UInt64, minor: UInt64 = 0, patch: UInt64 = 0, prerelease: [Identifier] = [], build: [String] = []
    ) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
    }

    /// Parses a version; `nil` when it is not one flagd accepts.
    package init?(_ text: String) {
        var text = text
        let parsed = text.withUTF8 { bytes in
            var parser = Parser(bytes)
            return parser.parse()
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The version from a context value: a string, or a number written as JavaScript would print it
    /// (`1` and `1.0` are `"1"`, `1.2` is `"1.2"`), as flagd does for numeric attributes.
    package init?(value: Value) {
        switch value {
        case .string(let text): self.init(text)
        case .int, .double: self.init(JS.toString(value))
        default: return nil
        }
    }

    /// `1.2.3-beta.1+build.5`, without a `v`.
    package var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty {
            text += "-" + prerelease.map { identifier in
                switch identifier {
                case .numeric(let number): String(number)
                case .alphanumeric(let word): word
                }
            }.joined(separator: ".")
        }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// Precedence order: major, minor, patch, then a pre-release sorts before its release. Build metadata
    /// is ignored, so two versions differing only in build are neither `<` nor `>` each other.
    package static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Equality by precedence: build metadata is ignored, as semver (and flagd) require.
    package static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Hashes what equality compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(prerelease)
    }

    /// -1, 0 or 1.
    static func compare(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Int {
        if lhs.major != rhs.major { return lhs.major < rhs.major ? -1 : 1 }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor ? -1 : 1 }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch ? -1 : 1 }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false):
            for (l, r) in zip(lhs.prerelease, rhs.prerelease) where l != r {
                return l < r ? -1 : 1
            }
            let (l, r) = (lhs.prerelease.count, rhs.prerelease.count)
            return l == r ? 0 : (l < r ? -1 : 1)
        }
    }

    /// The comparison operators `sem_ver` takes as its second argument.
    package enum Operator: String, Sendable, Hashable, CaseIterable {
        /// Same precedence.
        case equal = "="
        /// Different precedence.
        case notEqual = "!="
        /// Lower precedence.
        case less = "<"
        /// Lower or the same.
        case lessOrEqual = "<="
        /// Higher precedence.
        case greater = ">"
        /// Higher or the same.
        case greaterOrEqual = ">="
        /// Same major version (flagd's `^`: `1.9.0 ^ 1.0.0` holds; unlike npm, `0.x` is not special).
        case sameMajor = "^"
        /// Same major and minor version (flagd's `~`).
        case sameMinor = "~"

        /// Whether `lhs op rhs` holds.
        package func holds(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Bool {
            switch self {
            case .equal: compare(lhs, rhs) == 0
            case .notEqual: compare(lhs, rhs) != 0
            case .less: compare(lhs, rhs) < 0
            case .lessOrEqual: compare(lhs, rhs) <= 0
            case .greater: compare(lhs, rhs) > 0
            case .greaterOrEqual: compare(lhs, rhs) >= 0
            case .sameMajor: lhs.major == rhs.major
            case .sameMinor: lhs.major == rhs.major && lhs.minor == rhs.minor
            }
        }
    }
}

/// The grammar of Go's semver package, with the leading `v` optional and `V` accepted. Reads the string's
/// bytes in place: parsing a release version allocates nothing.
private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func parse() -> SemanticVersion? {
        if current == UInt8(ascii: "v") || current == UInt8(ascii: "V") { index += 1 }
        guard let major = number() else { return nil }
        if atEnd { return SemanticVersion(major: major) }
        guard take(".") else { return nil }
        guard let minor = number() else { return nil }
        if atEnd { return SemanticVersion(major: major, minor: minor) }
        guard take(".") else { return nil }
        guard let patch = number() else { return nil }
        var version = SemanticVersion(major: major, minor: minor, patch: patch)
        if take("-") {
            guard let identifiers = identifiers() else { return nil }
            var prerelease: [SemanticVersion.Identifier] = []
            for identifier in identifiers {
                if identifier.allSatisfy(Self.isDigit) {
                    // Numeric pre-release identifiers take no leading zeros.
                    guard identifier.count == 1 || identifier.first != UInt8(ascii: "0"),
                          let value = Self.decimal(identifier)
                    else { return nil }
                    prerelease.append(.numeric(value))
                } else {
                    prerelease.append(.alphanumeric(String(decoding: identifier, as: UTF8.self)))
                }
            }
            version.prerelease = prerelease
        }
        if take("+") {
            guard let identifiers = identifiers() else { return nil }
            version.build = identifiers.map { String(decoding: $0, as: UTF8.self) }
        }
        return atEnd ? version : nil
    }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard current == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// A number without leading zeros; versions beyond 64 bits are refused rather than misordered.
    mutating func number() -> UInt64? {
        let start = index
        while let byte = current, Self.isDigit(byte) { index += 1 }
        let digits = bytes[start..<index]
        guard !digits.isEmpty, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        return Self.decimal(digits)
    }

    /// Dot-separated non-empty identifiers of `[0-9A-Za-z-]`.
    mutating func identifiers() -> [Slice<UnsafeBufferPointer<UInt8>>]? {
        var result: [Slice<UnsafeBufferPointer<UInt8>>] = []
        while true {
            let start = index
            while let byte = current, Self.isIdentifierByte(byte) { index += 1 }
            guard index > start else { return nil }
            result.append(bytes[start..<index])
            if !take(".") { return result }
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
    }

    static func decimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }
}
