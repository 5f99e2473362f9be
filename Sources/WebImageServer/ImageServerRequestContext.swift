import Hummingbird
import NIOConcurrencyHelpers

/// The context of one request to the image server: Hummingbird's, and the failure a
/// fallback image answered for, which the route notes for the access log.
struct ImageServerRequestContext: RequestContext {
    /// Hummingbird's part of the context.
    var coreContext: CoreRequestContextStorage
    /// The source's failure when a fallback image answered the request (shared by every
    /// copy of the context, so that the access log reads what the route noted).
    let fallbackFailure = NIOLockedValueBox<ImageServerError?>(nil)

    /// The context of a request that `source` received.
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// The context of a request an application's router received and handed to the
    /// server's mounted routes: the application's logger and allocator, the server's route.
    init(coreContext: CoreRequestContextStorage) {
        self.coreContext = coreContext
    }
}
