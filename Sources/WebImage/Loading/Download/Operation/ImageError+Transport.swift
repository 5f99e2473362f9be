import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension ImageError {
    /// Reads an AsyncHTTPClient, SwiftNIO or TLS error as the library's error.
    init(transportError error: any Error, url: URL) {
        let target = url.absoluteString
        switch error {
        case let error as ImageError:
            self = error
        case is CancellationError:
            self.init(.cancelled, "the download of \(target) was cancelled")
        case let error as HTTPClientError:
            self.init(httpClientError: error, url: url)
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                self.init(.cannotFindHost, "the host of \(target) could not be resolved")
            } else if let first = error.connectionErrors.first {
                self.init(transportError: first.error, url: url)
            } else {
                self.init(.cannotConnect, "no connection could be made to \(target)")
            }
        case is SocketAddressError:
            self.init(.cannotFindHost, "the host of \(target) could not be resolved")
        case let error as IOError:
            self.init(ioError: error, target: target)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self.init(.tlsFailure, "the TLS handshake with \(target) failed: \(error)")
        case let error as ChannelError:
            if case .connectTimeout = error {
                self.init(.timedOut, "connecting to \(target) timed out")
            } else {
                self.init(.connectionLost, "the connection to \(target) was lost: \(error)")
            }
        case is HTTPParserError:
            self.init(.connectionLost, "the connection to \(target) was lost: \(error)")
        default:
            self.init(.connectionLost, "the download of \(target) failed: \(error)")
        }
    }

    private init(httpClientError error: HTTPClientError, url: URL) {
        let target = url.absoluteString
        switch error {
        case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
            self.init(.timedOut, "the download of \(target) timed out")
        case .remoteConnectionClosed, .bodyLengthMismatch:
            self.init(.connectionLost, "the connection to \(target) was lost")
        case .cancelled:
            self.init(.cancelled, "the download of \(target) was cancelled")
        case .redirectLimitReached, .redirectCycleDetected:
            self.init(.tooManyRedirects, "the redirects from \(target) loop or are too many")
        case .invalidURL, .emptyHost, .emptyScheme:
            self.init(.invalidURL, "\(target) is not a valid HTTP URL")
        case .unsupportedScheme(url.scheme ?? ""):
            self.init(.invalidURL, "\(target) does not use HTTP or HTTPS")
        default:
            self.init(.connectionLost, "the download of \(target) failed: \(error)")
        }
    }

    private init(ioError error: IOError, target: String) {
        switch error.errnoCode {
        case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL:
            self.init(.cannotConnect, "no connection could be made to \(target)")
        case ETIMEDOUT:
            self.init(.timedOut, "the connection to \(target) timed out")
        default:
            self.init(.connectionLost, "the connection to \(target) was lost: \(error)")
        }
    }
}
