import Configuration
import Foundation

struct Limits {
    let config: ConfigReader

    func read() async throws {
        _ = config.int(forKey: "shop.max_items", default: 10)
        _ = try config.requiredDouble(forKey: "shop.discount")
        let scoped = config.scoped(to: "shop")
        _ = scoped.bool(forKey: "new_flow", default: false)
        _ = UserDefaults.standard.bool(forKey: "shop.legacy_banner")
    }
}
