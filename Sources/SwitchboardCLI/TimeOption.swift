import ArgumentParser
import Foundation
import Switchboard

/// `--at TIME`: answer as of another time (RFC 3339 with a zone): schedule steps and override expiries applied
/// then, the files and the store as they are now. Shared by `validate`, `list`, `get`, `explain`, `stale` (what is
/// past its expires day then) and `diff` (whose impact is measured then, and from each later schedule step).
struct TimeOption: ParsableArguments {
    @Option(name: .customLong("at"), help: ArgumentHelp(
        "Answer as of this time (RFC 3339 with a zone, e.g. 2026-12-01T09:00:00Z): schedule steps and override "
            + "expiries as they are then.", valueName: "time"))
    var text: String?

    func validate() throws {
        guard let text else { return }
        do throws(ExpiryInput.Problem) {
            _ = try ExpiryInput.zonedMoment(of: text, name: "--at")
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The time in seconds since the epoch, when given.
    var seconds: Double? { text.flatMap(Timestamp.parseZoned) }

    /// The time, when given.
    var date: Date? { seconds.map(Date.init(timeIntervalSince1970:)) }
}
