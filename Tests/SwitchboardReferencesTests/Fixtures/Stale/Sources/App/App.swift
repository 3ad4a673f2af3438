import Switchboard

// Reads every definition of the fixture except app.partner_only.
func render(board: Board) -> String {
    let banner = board.bool("app.old_banner", default: false)
    let flow = board.bool("app.new_flow", default: true)
    let checkout = board.string("app.checkout_v2", default: "old")
    let theme = board.string("app.theme", default: "system")
    return "\(banner) \(flow) \(checkout) \(theme)"
}
