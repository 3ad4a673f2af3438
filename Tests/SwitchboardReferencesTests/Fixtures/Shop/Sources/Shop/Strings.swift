import Switchboard

func strings(board: Board, store: any RuntimeStore) async throws {
    _ = board.bool("shop.new_flow")
    _ = board.details("shop.max_items")
    _ = board.explain("shop.discount")
    try store.set("shop.banner_color", to: .string("green"))
    try store.reset("shop.banner_color")
    for await sections in board.updates(of: "shop.sections") { print(sections) }
    for await limits in board.detailedUpdates(of: "shop.limits") { print(limits) }
    _ = board.string("shop.new_flwo")
    _ = board.int("inventory.count")
    _ = board.double("app.ratio")
    _ = Value.string("shop.theme")
    let value: Value = .bool(true)
}
