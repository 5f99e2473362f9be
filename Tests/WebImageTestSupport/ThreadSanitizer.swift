import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether this test process (and so the tools it builds and starts) runs under
/// ThreadSanitizer, whose shadow memory inflates every process's resident size.
package enum ThreadSanitizer {
    package static let isActive: Bool = dlsym(nil, "__tsan_init") != nil
}
