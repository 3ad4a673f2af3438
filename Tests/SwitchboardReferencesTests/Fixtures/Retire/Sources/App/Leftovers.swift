import Switchboard

// board.bool("checkout.new_flow") in a comment is no reference.
let text = "checkout.new_flow"

func watch(board: Board) {
    board.observe("checkout.new_flow") { change in print(change) }
    let key = FlagKey("checkout.new_flow", default: false)
    print(key, try! board.set("checkout.new_flow", to: true))
}

func remote(board: RemoteBoard) async throws {
    let on = try await board.bool(FlagKey("checkout.new_flow", default: false))
    print(on, on)
}
