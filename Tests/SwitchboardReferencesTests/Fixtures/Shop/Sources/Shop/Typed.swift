import Switchboard

func checkout(board: Board, model: Model) async {
    if board.value(Flags.Shop.newFlow) {
        print(board.value(Flags.Shop.maxItems), board.value(Flags.Shop.discount))
    }
    let color: Flags.Shop.BannerColor = board.value(Flags.Shop.bannerColor)
    _ = model[Flags.Shop.sections]
    for await limits in board.updates(of: Flags.Shop.limits) { print(limits, color) }
    _ = Switchboard.Flags.Shop.newFlow.defaultValue
}

struct Settings {
    @Preference(Prefs.Shop.theme, on: board) var theme
    @Preference(Prefs.Shop.Upload.maxMb, on: board) var maxMb
    let keys = [Prefs.Shop.ratio, Prefs.Shop.tags]
    let support = Prefs.Shop.support
    let title = board.value(Prefs.Shop.title)
    let dark = Prefs.Shop.Theme.dark
}
