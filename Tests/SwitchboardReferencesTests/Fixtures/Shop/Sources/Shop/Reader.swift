import Configuration

func supportAddress(provider: some ConfigProvider) -> String? {
    let reader = ConfigReader(provider: provider)
    return reader.string(forKey: "shop.support")
}
