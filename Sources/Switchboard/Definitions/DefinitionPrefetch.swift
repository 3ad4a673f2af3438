import Dispatch
import Foundation
import Locking

/// A load of a definitions directory begun before anyone asks for it. A one-shot command starts reading its
/// definitions while its command line is still being parsed (ArgumentParser's first parse takes ~4 ms of a 40 ms
/// `validate`, with a core idle), and the ``DefinitionLoader/load(directory:today:now:)`` that then asks for the same
/// directory and day, at the clock's time, takes the result instead of reading again. Other loads read as usual.
///
/// The files are read a few milliseconds sooner than they would have been: for a one-shot command, the same thing.
/// A long-running face (the server, the REPL) should not start one: it fingerprints the files before reading them,
/// to notice an edit that lands during the read, and a prefetch reads them before that.
package enum DefinitionPrefetch {
    /// A load under way. `report` is written once, on the loading thread, before `done` is signalled.
    private final class Job: @unchecked Sendable {
        let directory: String
        let today: Day
        let done = DispatchSemaphore(value: 0)
        var report: LoadReport?

        init(directory: String, today: Day) {
            self.directory = directory
            self.today = today
        }
    }

    private static let pending = Locked<Job?>(nil)

    /// Begins loading `directory` on another thread, as ``DefinitionLoader/load(directory:today:now:)`` would with
    /// the clock's time. Replaces a prefetch not yet taken. On a thread of its own rather than the global queue's,
    /// whose first use starts libdispatch's pool on the way (alternating runs of `validate` on 20 files: first
    /// quartile and median 4–5% lower, fastest unchanged), and a bare pthread rather than Foundation's `Thread`,
    /// which took 0.3 ms more to begin (40 runs, fastest tenth: 0.28–0.36 ms against 0.02–0.05). When no thread can
    /// be started, nothing is pending and the load reads as usual.
    package static func start(directory: String, today: Day = .today()) {
        let job = Job(directory: directory, today: today)
        pending.withLock { $0 = job }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(job).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            job.report = DefinitionLoader.read(directory: job.directory, today: job.today, now: nil)
            job.done.signal()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            pending.withLock { if $0 === job { $0 = nil } }
            return
        }
        pthread_detach(thread)
    }

    /// The prefetched load of `directory` on `today` at the clock's time (`now` is `nil`), once it is done, and
    /// then no more: it answers one load. `nil` when none was started for them.
    static func take(directory: String, today: Day, now: Double?) -> LoadReport? {
        guard now == nil else { return nil }
        let taken = pending.withLock { job -> Job? in
            guard let current = job, current.directory == directory, current.today == today else { return nil }
            job = nil
            return current
        }
        guard let job = taken else { return nil }
        job.done.wait()
        return job.report
    }
}
