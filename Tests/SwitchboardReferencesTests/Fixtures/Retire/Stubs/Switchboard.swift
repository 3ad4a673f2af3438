// Just enough of Switchboard's API for the retire fixture's rewritten code to type-check on its own
// (`swiftc -typecheck -module-name Switchboard`), without building the library.
public struct FlagKey<Value>: Sendable where Value: Sendable {
    public let name: String
    public let defaultValue: Value
    public init(_ name: String, default: Value) {
        self.name = name
        defaultValue = `default`
    }
}

public final class Board {
    public func value<Value>(_ key: FlagKey<Value>) -> Value { key.defaultValue }
    public func bool(_ key: String, default: Bool = false) -> Bool { `default` }
    public func observe(_ key: String, _ handler: @escaping (String) -> Void) {}
    public func set(_ key: String, to value: Bool) throws {}
}

public final class RemoteBoard {
    public func bool(_ key: FlagKey<Bool>) async throws -> Bool { key.defaultValue }
}
