import Switchboard

func checkout(board: Board) {
    if board.value(Flags.Checkout.newFlow) {
        print("new flow")
        print("with cards:", board.value(Flags.Checkout.maxCards))
    } else {
        print("old flow")
    }
    guard board.bool("checkout.new_flow") else { return }
    let label = board.bool("checkout.new_flow", default: false) ? "new" : "old"
    print(label)
}

func summary(board: Board) -> String {
    let isNew = board.value(Flags.Checkout.newFlow)
    if !isNew {
        return "legacy"
    }
    return "modern"
}

func banner(board: Board) {
    if board.bool("checkout.new_flow") {
        print("new")
    } else if board.bool("checkout.payments_v2") {
        print("v2")
    }
    if board.bool("checkout.max_cards_enabled_elsewhere") { print("unrelated") }
}
