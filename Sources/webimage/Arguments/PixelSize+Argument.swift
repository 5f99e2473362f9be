import ArgumentParser
import WebImage

extension PixelSize: ExpressibleByArgument {
    /// Parses `WIDTHxHEIGHT`, such as `400x300`.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}
