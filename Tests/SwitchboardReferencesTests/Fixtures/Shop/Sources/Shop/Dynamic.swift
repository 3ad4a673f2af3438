import Configuration
import Switchboard

func debug(board: Board, name: String, key: FlagKey<Bool>, config: ConfigReader) {
    _ = board.bool("shop.\(name)")
    _ = board.string("shop." + name)
    _ = board.value(key)
    _ = FlagKey(name, default: false)
    _ = config.string(forKey: name)
    _ = config.scoped(to: "shop").int(forKey: "max_items")
}
