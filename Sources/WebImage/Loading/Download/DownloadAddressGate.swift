import Foundation

/// Decides, for every URL a download connects to — the first one and each redirect's
/// target — whether it may be fetched, and the IP address the connection goes to.
///
/// The downloader connects to the address the gate returns and to no other: the name is not
/// resolved again, so what the gate checked is what is reached (no DNS rebinding between
/// the check and the connection). The URL's host still goes in the `Host` header and in
/// TLS server name indication, and certificates are verified against that name.
///
/// The image server's source policy is one: it refuses hosts off its allow-list and
/// addresses on private networks.
public struct DownloadAddressGate: Sendable {
    private let decide: @Sendable (URL) async throws(ImageError) -> String

    /// A gate that answers with `address`: the IP address (IPv4 dotted or IPv6 text) to
    /// connect to for a URL, or an error (`ImageError.Code.refused` for a URL the
    /// policy forbids) that fails the download without any connection.
    public init(_ address: @escaping @Sendable (URL) async throws(ImageError) -> String) {
        decide = address
    }

    /// The address to connect to for `url`.
    ///
    /// - Throws: The gate's refusal.
    public func address(for url: URL) async throws(ImageError) -> String {
        try await decide(url)
    }
}
