import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address, as far as the source policy needs to know it.
struct IPAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    let bytes: [UInt8]

    /// The address in a `sockaddr_in` or `sockaddr_in6`; `nil` for other families.
    init?(socketAddress: UnsafeMutablePointer<sockaddr>) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let value = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            bytes = withUnsafeBytes(of: value) { Array($0) }
        case AF_INET6:
            let value = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            bytes = withUnsafeBytes(of: value) { Array($0) }
        default:
            return nil
        }
    }

    /// An address from its bytes (4 or 16).
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether the address is reachable on the public internet: not unspecified, loopback,
    /// private (RFC 1918, carrier-grade NAT, IPv6 unique local), link-local or multicast.
    /// An IPv4-mapped IPv6 address is judged as its IPv4 address.
    var isPublic: Bool {
        if bytes.count == 16 {
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return IPAddress(bytes: Array(bytes[12...])).isPublic
            }
            if bytes.allSatisfy({ $0 == 0 }) { return false }  // ::
            if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return false }  // ::1
            if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7
            if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10
            if bytes[0] == 0xFF { return false }  // multicast
            return true
        }
        guard bytes.count == 4 else { return false }
        switch (bytes[0], bytes[1]) {
        case (0, _), (10, _), (127, _): return false
        case (100, 64...127): return false  // carrier-grade NAT
        case (169, 254): return false  // link-local
        case (172, 16...31): return false
        case (192, 168): return false
        case (224...255, _): return false  // multicast and reserved
        default: return true
        }
    }

    /// The address in its usual text form.
    var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self)
    }
}
