/// What a board tells its subscribers.
public enum BoardEvent: Sendable {
    /// A new snapshot is in service.
    case published(Publication)
    /// A reload found errors (the last good definitions stay in service), or an earlier one's errors are fixed
    /// (empty); or the runtime store became unreadable or readable again.
    case status(BoardStatus)
}
