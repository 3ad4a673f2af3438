// Uses every kind of generated key from ExampleFlags.swift, so CompileTests checks the types a caller sees.
import Switchboard

func useExampleKeys(_ board: Board) {
    let newFlow: Bool = board.value(Flags.Checkout.newFlow)
    let color: Flags.Checkout.ButtonColor = board.value(Flags.Checkout.buttonColor)
    let threshold: Double = board.value(Flags.Checkout.freeShippingThreshold)
    let cards: Int = board.value(Flags.Checkout.maxSavedCards)
    let methods: [Value] = board.value(Flags.Checkout.paymentMethods)
    let form: [String: Value] = board.value(Flags.Checkout.addressForm)
    let sort: Prefs.App.History.SortOrder = board.value(Prefs.App.History.sortOrder)
    let locale: String = board.value(Prefs.App.locale)
    let details: Details<Prefs.App.Theme> = board.details(Prefs.App.theme)
    switch sort {
    case .newestFirst, .oldestFirst: break
    }
    _ = (newFlow, color.rawValue, threshold, cards, methods, form, locale, details.reason)
    _ = Prefs.App.History.DateFilter.allCases
}
