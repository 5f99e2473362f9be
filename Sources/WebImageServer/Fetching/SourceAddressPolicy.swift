import Foundation
import WebImage

/// Decides whether the server may fetch a source URL, and where it connects for it:
/// `http` or `https`, a host on the allowed list (when there is one), and — unless private
/// sources are allowed — a host whose every address is public (see ``IPAddress/isPublic``)
/// or one of the addresses allowed by name, so that a signed URL cannot reach the server's
/// own network.
///
/// The same rules apply to the first URL and to every redirect's target, at the moment of
/// connecting: ``address(for:)`` is the downloader's `DownloadAddressGate`, and the
/// connection goes to the address it checked.
struct SourceAddressPolicy: Sendable {
    /// The hosts allowed; empty allows any.
    let allowedHosts: Set<String>
    /// Whether private addresses may be fetched.
    let allowsPrivateAddresses: Bool
    /// Addresses allowed although they are not public.
    let allowedAddresses: Set<IPAddress>
    /// How host names become addresses.
    let resolver: SourceHostResolver
    /// The ports allowed; empty allows any.
    var allowedPorts: Set<Int> = []
    /// The answers of recent lookups, shared by the lookup before a fetch takes its slot and
    /// the one where it connects.
    var resolvedHosts = ResolvedHosts()

    /// Checks what can be checked of `url` without resolving it: the scheme, the host and
    /// the allow-lists of hosts and ports.
    ///
    /// - Returns: The host, lowercased and without brackets.
    /// - Throws: ``ImageServerError`` 400 for a URL that is not http(s) or has no host, 403
    ///   for a host or port that is not allowed.
    @discardableResult
    func checkHost(of url: URL) throws(ImageServerError) -> String {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else {
            throw ImageServerError(.badRequest, "bad source URL", detail: "not an http or https URL with a host: \(url.absoluteString)")
        }
        let bareHost = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if !allowedHosts.isEmpty, !allowedHosts.contains(bareHost) {
            throw ImageServerError(.forbidden, "address not allowed", detail: "the source host \(bareHost) is not on the allow-list")
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        if !allowedPorts.isEmpty, !allowedPorts.contains(port) {
            throw ImageServerError(.forbidden, "address not allowed", detail: "the source port \(port) is not on the allow-list")
        }
        return bareHost
    }

    /// The address to connect to for `url`: the first of its host's addresses, once every
    /// one of them is checked.
    ///
    /// - Throws: `ImageError.Code.refused` for a URL the policy forbids,
    ///   `ImageError.Code.cannotFindHost` for a host that does not resolve.
    func address(for url: URL) async throws(ImageError) -> String {
        let host: String
        do throws(ImageServerError) {
            host = try checkHost(of: url)
        } catch {
            throw ImageError(.refused, error.detail ?? error.message)
        }
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            let resolver = self.resolver
            addresses = await resolvedHosts.addresses(of: host) { await resolver.addresses(of: $0) }
        }
        guard let first = addresses.first else {
            throw ImageError(.cannotFindHost, "the source host \(host) does not resolve")
        }
        if let forbidden = addresses.first(where: { !isAllowed($0) }) {
            throw ImageError(.refused, "the source host \(host) resolves to a forbidden address (\(forbidden))")
        }
        return first.description
    }

    /// Whether `address` may be connected to.
    func isAllowed(_ address: IPAddress) -> Bool {
        allowsPrivateAddresses || address.isPublic || allowedAddresses.contains(address)
    }
}
