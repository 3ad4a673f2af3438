/// The version of Switchboard: the one place it is written.
///
/// `switchboard --version` and `switchboard version` print it, `switchboard serve` reports it in `GET /healthz` and
/// as the `switchboard_build_info{version="…"}` gauge at `/metrics`. Change it here when cutting a release.
public enum SwitchboardVersion {
    /// The version as semantic-version text, such as `0.1.0`.
    public static let current = "0.1.0"
}
