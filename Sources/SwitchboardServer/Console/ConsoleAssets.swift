/// The console's page, script, styles and icon, compiled into the binary: no file is read at run time, so a
/// `switchboard` copied alone to another machine serves the whole console. The texts are in
/// `ConsoleAssets+Page.swift`, `ConsoleAssets+Script.swift` and `ConsoleAssets+Styles.swift`, written by hand;
/// there is no build step.
///
/// The page loads only `/console/app.js` and `/console/app.css` and has no inline script or style, which the
/// Content-Security-Policy of ``ConsoleHeaders`` enforces. The script renders everything from the server as text
/// (`textContent`, never HTML), so a description like `<img src=x onerror=alert(1)>` shows those characters.
enum ConsoleAssets {
    /// The icon: a switch, in the page's accent colour.
    static let icon: StaticString = #"""
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="9" width="28" height="14" rx="7" \#
fill="#2f6fdf"/><circle cx="23" cy="16" r="5" fill="#fff"/></svg>
"""#
}
