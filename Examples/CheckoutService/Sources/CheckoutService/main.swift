// Reads every kind of typed key that the SwitchboardGenerator plugin writes for flags/*.yaml at build time.
// Nothing generated is committed: `Flags` and `Prefs` come from the build's SwitchboardKeys.swift.
import Foundation
import Switchboard

/// Loads the definitions that ship with the executable: the same files the keys were generated from.
func openBoard() -> Board {
    guard let flags = Bundle.module.path(forResource: "flags", ofType: nil) else {
        FileHandle.standardError.write(Data("error: the flags resource is missing\n".utf8))
        exit(1)
    }
    do {
        // A short-lived command does not need to watch for changes.
        return try Board(directory: flags, options: BoardOptions(pollInterval: nil))
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}

let board = openBoard()

// Flags: bool, a string flag with variants (an enum of its variants), int, double, list and object.
let newFlow: Bool = board.value(Flags.Checkout.newFlow)
print("new checkout flow: \(newFlow ? "on" : "off")")

let color: Flags.Checkout.ButtonColor = board.value(Flags.Checkout.buttonColor)
print("pay button: variant \(color), colour \(color.rawValue)")

let maxCards: Int = board.value(Flags.Checkout.maxSavedCards)
print("saved cards: up to \(maxCards)")

let threshold: Double = board.value(Flags.Checkout.freeShippingThreshold)
print("free shipping above: \(threshold) EUR")

let methods: [Value] = board.value(Flags.Checkout.paymentMethods)
print("payment methods: \(methods.compactMap(\.stringValue).joined(separator: ", "))")

let form: [String: Value] = board.value(Flags.Checkout.addressForm)
print("address form: \(form["columns"]?.intValue ?? 1) columns, autocomplete \(form["autocomplete"] ?? false)")

// Preferences: an enum of `values`, a string and an int.
switch board.value(Prefs.App.History.sortOrder) {
case .newestFirst: print("order history: newest first")
case .oldestFirst: print("order history: oldest first")
}

let locale: String = board.value(Prefs.App.locale)
print("receipt locale: \(locale)")

let uploadLimit: Int = board.value(Prefs.App.Upload.maxMb)
print("receipt uploads: up to \(uploadLimit) MB")

// Details tell where a value came from; an override set in the environment shows up as the env layer.
let sortOrder = board.details(Prefs.App.History.sortOrder)
print("\(sortOrder.key) = \(sortOrder.value.rawValue) from the \(sortOrder.layer?.rawValue ?? "no") layer")

// Using Flags.Checkout.legacyCouponBanner here would warn: its `expires` date has passed, so the generated key is
// marked deprecated until the flag is removed from checkout.yaml.
