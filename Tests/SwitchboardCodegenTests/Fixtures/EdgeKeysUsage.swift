// Uses the keys of EdgeKeys.swift whose names need escaping, as a caller would write them.
import Switchboard

func useEdgeKeys(_ board: Board) {
    let a: Bool = board.value(Flags.Edge.default)
    let b: Bool = board.value(Flags.Edge.`self`)
    let c: Int = board.value(Flags.Edge.`init`)
    let d: Bool = board.value(Flags.Edge._3dMode)
    let e: Flags.Edge.Mode = board.value(Flags.Edge.mode)
    let modes: [Flags.Edge.Mode] = [.default, .protocol, .`self`]
    let f: Prefs.Edge.Type_.Kind = board.value(Prefs.Edge.Type_.kind)
    let g: [Value] = board.value(Prefs.Edge.items)
    let h: String = board.value(Prefs.Edge.String.label)
    let i: Prefs.Edge.Http.Method = board.value(Prefs.Edge.Http.method)
    let j: Int = board.value(Prefs.Edge.Value.limit)
    let k: String = board.value(Prefs.Edge.theme)
    let l: Double = board.value(Prefs.Edge.Theme.contrast)
    _ = (a, b, c, d, e, modes, f, g, h, i, j, k, l)
}
