import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address, as far as the source policy needs to know it.
struct IPAddress: Sendable, Hashable, CustomStringConvertible {
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

    /// The address `text` spells (dotted IPv4 or IPv6 text, without brackets); `nil` for a
    /// host name or anything else.
    init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
            return
        }
        return nil
    }

    /// Whether the address is reachable on the public internet: in none of the ranges of
    /// IANA's IPv4 and IPv6 special-purpose address registries that name something other
    /// than a public host (unspecified, loopback, private, shared, link-local, site-local,
    /// documentation, benchmarking, protocol assignments, translation, multicast, reserved).
    /// An IPv4-mapped IPv6 address and a 6to4 address are judged by the IPv4 address they
    /// carry.
    var isPublic: Bool {
        bytes.count == 16 ? isPublicIPv6 : bytes.count == 4 && isPublicIPv4
    }

    private var isPublicIPv4: Bool {
        switch (bytes[0], bytes[1], bytes[2]) {
        case (0, _, _): return false  // 0.0.0.0/8 "this network"
        case (10, _, _): return false  // 10.0.0.0/8 private
        case (100, 64...127, _): return false  // 100.64.0.0/10 shared (carrier-grade NAT)
        case (127, _, _): return false  // 127.0.0.0/8 loopback
        case (169, 254, _): return false  // 169.254.0.0/16 link-local (cloud metadata)
        case (172, 16...31, _): return false  // 172.16.0.0/12 private
        case (192, 0, 0): return false  // 192.0.0.0/24 IETF protocol assignments
        case (192, 0, 2): return false  // 192.0.2.0/24 documentation (TEST-NET-1)
        case (192, 88, 99): return false  // 192.88.99.0/24 6to4 relay anycast
        case (192, 168, _): return false  // 192.168.0.0/16 private
        case (198, 18...19, _): return false  // 198.18.0.0/15 benchmarking
        case (198, 51, 100): return false  // 198.51.100.0/24 documentation (TEST-NET-2)
        case (203, 0, 113): return false  // 203.0.113.0/24 documentation (TEST-NET-3)
        case (224...239, _, _): return false  // 224.0.0.0/4 multicast
        case (240...255, _, _): return false  // 240.0.0.0/4 reserved, and the broadcast address
        default: return true
        }
    }

    private var isPublicIPv6: Bool {
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return IPAddress(bytes: Array(bytes[12...])).isPublic  // ::ffff:0:0/96 IPv4-mapped
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return IPAddress(bytes: Array(bytes[2..<6])).isPublic  // 2002::/16 6to4
        }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::/96: ::, ::1, IPv4-compatible
        if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B] {
            return false  // 64:ff9b::/96 NAT64 and 64:ff9b:1::/48 local-use NAT64
        }
        if bytes[0..<8] == [0x01, 0x00, 0, 0, 0, 0, 0, 0] { return false }  // 100::/64 discard-only
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] & 0xFE == 0 {
            return false  // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID)
        }
        if bytes[0..<4] == [0x20, 0x01, 0x0D, 0xB8] { return false }  // 2001:db8::/32 documentation
        if bytes[0] == 0x3F, bytes[1] == 0xFF, bytes[2] & 0xF0 == 0 { return false }  // 3fff::/20 documentation
        if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local
        if bytes[0] == 0xFF { return false }  // ff00::/8 multicast
        return true
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
