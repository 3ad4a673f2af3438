#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time without Foundation, for timestamps in the audit log and expiry checks.
package enum Clock {
    /// Seconds since the Unix epoch, with fraction.
    package static func secondsSinceEpoch() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The current time in ISO 8601 UTC with milliseconds (`2026-11-23T14:05:09.123Z`), as stores record it.
    /// Formatted by hand: a Foundation date formatter costs more to create than a whole store write.
    package static func timestamp() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return timestamp(seconds: Int(ts.tv_sec), milliseconds: Int(ts.tv_nsec / 1_000_000))
    }

    /// A moment, given in seconds since the Unix epoch, in ISO 8601 UTC with milliseconds, as stores record it.
    package static func timestamp(secondsSinceEpoch: Double) -> String {
        let milliseconds = Int((secondsSinceEpoch * 1000).rounded(.down))
        let (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? timestamp(seconds: seconds - 1, milliseconds: remainder + 1000)
            : timestamp(seconds: seconds, milliseconds: remainder)
    }

    /// The ISO 8601 UTC text of a moment given as whole seconds since the epoch and milliseconds.
    static func timestamp(seconds whole: Int, milliseconds: Int) -> String {
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
            + pad(Int32(milliseconds), 3) + "Z"
    }
}
