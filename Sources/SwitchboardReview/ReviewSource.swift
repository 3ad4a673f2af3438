/// Where one side of a review reads its definitions and override files.
package enum ReviewSource: Sendable, Hashable {
    /// A definitions folder on disk as it is now; `label` is what the report calls it (`"WORKTREE"`, a folder).
    case folder(String, label: String)
    /// The definitions folder at a git revision; `folder` is the definitions folder on disk, which says where in
    /// the repository to look.
    case revision(String, folder: String)

    /// What the report calls this side: the revision as given, `"WORKTREE"`, or the folder.
    package var label: String {
        switch self {
        case .folder(_, let label): label
        case .revision(let revision, _): revision
        }
    }

    /// The label of the working tree, as `switchboard diff` reports a side with no revision.
    package static let worktreeLabel = "WORKTREE"

    /// The definitions folder `folder` at `revision`, or as it is now when `revision` is ``worktreeLabel``: the name
    /// the report gives the working tree names it on the command line too.
    package static func named(_ revision: String, folder: String) -> ReviewSource {
        revision == worktreeLabel ? .folder(folder, label: worktreeLabel) : .revision(revision, folder: folder)
    }
}
