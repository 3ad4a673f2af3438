import Switchboard

func platform(board: Board) {
    #if os(Linux)
    _ = board.bool("shop.new_flow")
    #elseif DEBUG
    _ = board.value(Prefs.Shop.ratio)
    #else
    _ = FlagKey("shop.max_items", default: 1)
    #endif
}
