import Glibc

/// A TCP port on 127.0.0.1 that is bound but never listens: connecting to it is refused,
/// and no other server of the test run can take the port while this holds it.
package final class RefusingPort {
    /// The port number.
    package let port: Int
    private let socketDescriptor: Int32

    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RefusingPortError(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw RefusingPortError(call: "bind")
        }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socketDescriptor)
    }
}

/// A system call failed while setting up a ``RefusingPort``.
package struct RefusingPortError: Error {
    package let call: String
}
