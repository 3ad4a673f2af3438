extension Details where T: FlagValue {
    /// What a typed lookup with `defaultValue` reports for a resolution: its value as `T`; or the caller's default,
    /// with the resolution's reason when it served no value (a disabled flag) and `TYPE_MISMATCH` when the value
    /// is not a `T`. Every board's lookups and key streams type a resolution here.
    package init(key: String, resolution: Resolution, default defaultValue: T) {
        self.init(of: key, value: defaultValue, variant: resolution.variant, reason: resolution.reason,
                  layer: resolution.layer, errorCode: resolution.errorCode, errorMessage: resolution.errorMessage)
        guard let value = resolution.value else {
            layer = nil
            return
        }
        if let typed = T(flagValue: value) {
            self.value = typed
        } else {
            reason = .error
            layer = nil
            variant = nil
            errorCode = .typeMismatch
            errorMessage = Message.typeMismatch(
                key: key, found: value, expected: T.valueType, swiftType: "\(T.self)", field: T.mismatch(in: value)
            ).text
        }
    }
}
