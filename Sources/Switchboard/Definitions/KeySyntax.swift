/// The key syntax: dot-separated segments of lowercase letters, digits, `_` and `-`.
package enum KeySyntax {
    /// Whether a key (or namespace) is well formed.
    package static func isValid(_ key: String) -> Bool {
        var segmentLength = 0
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"):
                segmentLength += 1
            case UInt8(ascii: "."):
                if segmentLength == 0 { return false }
                segmentLength = 0
            default:
                return false
            }
        }
        return segmentLength > 0
    }

    /// A hint for an invalid key, suggesting the nearest valid spelling.
    package static func hint(for key: String) -> String {
        var fixed = ""
        for character in key.lowercased() {
            if character.isLetter || character.isNumber || character == "_" || character == "-" || character == "." {
                fixed.append(character.isASCII ? character : "_")
            } else {
                fixed.append("_")
            }
        }
        let suggestion = fixed.split(separator: ".").joined(separator: ".")
        let rule = "keys are dot-separated segments of lowercase letters, digits, '_' and '-'"
        return KeySyntax.isValid(suggestion) && suggestion != key ? "\(rule); try '\(suggestion)'" : rule
    }

    /// The environment variable that overrides a key: `SWITCHBOARD_` + key in upper case, `.` as `__`,
    /// `-` as `_`.
    package static func environmentVariable(for key: String) -> String {
        EnvironmentName(key).withBytes { "SWITCHBOARD_" + String(decoding: $0, as: UTF8.self) }
    }
}
