/// The modifiers and decryptor one download runs: the request's own, else the
/// downloader's. Two sets are equal when they hold the same instances, so that requests
/// with different hooks never share a transfer.
struct DownloadHooks: Hashable, Sendable {
    let requestModifier: DownloadRequestModifier?
    let responseModifier: DownloadResponseModifier?
    let decryptor: DownloadDecryptor?

    init(_ request: ImageLoadRequest, configuration: ImageDownloaderConfiguration) {
        requestModifier = request.requestModifier ?? configuration.requestModifier
        responseModifier = request.responseModifier ?? configuration.responseModifier
        decryptor = request.decryptor ?? configuration.decryptor
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.requestModifier === rhs.requestModifier && lhs.responseModifier === rhs.responseModifier
            && lhs.decryptor === rhs.decryptor
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(requestModifier.map(ObjectIdentifier.init))
        hasher.combine(responseModifier.map(ObjectIdentifier.init))
        hasher.combine(decryptor.map(ObjectIdentifier.init))
    }
}
