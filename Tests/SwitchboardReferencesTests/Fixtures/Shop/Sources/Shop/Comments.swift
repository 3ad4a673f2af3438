// board.bool("shop.legacy_banner") is how the banner was read.
/// Flags.Shop.legacyBanner, retired.
/* FlagKey("shop.legacy_banner", default: false) */
let message = "shop.legacy_banner"
let note = """
    board.bool("shop.legacy_banner")
    """
let names = ["shop.legacy_banner": "Flags.Shop.legacyBanner"]
func log() { print("board.value(Flags.Shop.legacyBanner)", message) }
