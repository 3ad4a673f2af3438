#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds how many connections a server can hold: every
/// connection is a file descriptor.
///
/// ```swift
/// let limit = try DescriptorLimit.raiseSoftToHard()   // what `switchboard serve` does at start
/// let cap = limit.connectionCap(for: 10_000)          // 10,000, or fewer under a small limit
/// ```
public struct DescriptorLimit: Sendable, Equatable, CustomStringConvertible {
    /// The limit in force: opening a file past it fails with `EMFILE`. `Int.max` when unlimited.
    public var soft: Int
    /// The most a process without privileges may raise ``soft`` to. `Int.max` when unlimited.
    public var hard: Int

    /// A limit with the given values.
    public init(soft: Int, hard: Int) {
        self.soft = soft
        self.hard = hard
    }

    /// The process's limit now.
    public static func current() -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return DescriptorLimit(soft: Int.max, hard: Int.max) }
        return DescriptorLimit(soft: Self.count(limit.rlim_cur), hard: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as servers do at start: a service is often started with a soft limit
    /// of 1,024 and a hard limit far above it.
    ///
    /// - Returns: the limit after raising it.
    /// - Throws: ``RaiseFailed`` when the system refuses; the limit is then unchanged.
    @discardableResult
    public static func raiseSoftToHard() throws -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { throw RaiseFailed(errno: errno) }
        guard limit.rlim_cur != limit.rlim_max else { return current() }
        limit.rlim_cur = limit.rlim_max
        #if canImport(Darwin)
        // macOS refuses an unlimited soft limit on files; OPEN_MAX is the most it takes.
        if limit.rlim_cur == Self.unlimited { limit.rlim_cur = rlim_t(OPEN_MAX) }
        #endif
        guard setrlimit(Self.resource, &limit) == 0 else { throw RaiseFailed(errno: errno) }
        return current()
    }

    /// Why ``raiseSoftToHard()`` failed.
    public struct RaiseFailed: Error, CustomStringConvertible {
        /// The system's error number.
        public var errno: Int32
        /// The system's explanation.
        public var description: String { "cannot raise the open-files limit: \(String(cString: strerror(errno)))" }
    }

    /// The descriptors kept for everything but connections — the listening socket, the event loops, the
    /// definitions and the store, database connections, and connections being refused — under this soft limit:
    /// a tenth of it, and at least 64.
    public var reserve: Int {
        soft == Int.max ? 0 : Swift.min(soft, Swift.max(64, soft / 10))
    }

    /// How many connections a server may hold under this limit when configured for `configured`: the smaller of
    /// the two, the soft limit less ``reserve``; at least 1.
    public func connectionCap(for configured: Int) -> Int {
        Swift.max(1, Swift.min(configured, soft - reserve))
    }

    /// `soft 1024, hard 524288`, or `unlimited`.
    public var description: String {
        func text(_ value: Int) -> String { value == Int.max ? "unlimited" : "\(value)" }
        return "soft \(text(soft)), hard \(text(hard))"
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    // Glibc's RLIM_INFINITY, `((__rlim_t) -1)`, does not import.
    #if canImport(Darwin)
    private static let unlimited = RLIM_INFINITY
    #else
    private static let unlimited = rlim_t.max
    #endif

    private static func count(_ value: rlim_t) -> Int {
        value == Self.unlimited || value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
