import HTTPTypes
import Hummingbird

extension ImageServer {
    /// Adds the server's routes to an application's own router, or to a group of it, so
    /// that the application answers image URLs under that group's path beside its own
    /// routes. See <doc:MountingTheServer>.
    ///
    /// ```swift
    /// let router = Router()
    /// router.get("/hello") { _, _ in "hello" }
    /// try server.addRoutes(to: router.group("images"))
    /// ```
    ///
    /// Every request under the group is answered as ``run(onRunning:onMetricsRunning:)``'s
    /// listener answers it, with the same envelope: the access log and its counts, the
    /// method admission, the deadline, the memory and transform admission, the limits and the
    /// signature check — and with the path under the group, so a URL is signed, cached and
    /// logged as `/<signature>/<spec>/<source>`, without the group's path. The group's
    /// `/health` and its home page (when configured) answer too. Requests of any method
    /// reach the server, which refuses all but `GET` and `HEAD` as its own listener does.
    ///
    /// The group's path may hold literal segments and parameters (`tenants/:id/images`);
    /// the segments the group's route matched are taken off the front of the request's path.
    ///
    /// The application runs the listener: its address, connection limits and timeouts are
    /// the application's, and the server's `/metrics` listener does not run (its counts
    /// are in ``metrics``). Call ``shutdown()`` once the application has stopped.
    ///
    /// - Throws: ``ImageServerConfigurationError`` when ``ImageServerConfiguration/validate()``
    ///   refuses the configuration, before any route is added.
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) throws(ImageServerConfigurationError) {
        try configuration.validate()
        let responder = try self.router().buildResponder()
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options]
        for method in methods {
            for path: RouterPath in ["", "**"] {
                router.on(path, method: method) { request, context in
                    let inner = Request(head: Self.head(of: request, under: context.endpointPath ?? ""), body: request.body)
                    return try await responder.respond(to: inner, context: ImageServerRequestContext(coreContext: context.coreContext))
                }
            }
        }
    }

    /// Closes what a server whose routes an application mounted holds: the downloader, and
    /// the caches' disk maintenance. ``run(onRunning:onMetricsRunning:)`` does this itself.
    public func shutdown() async {
        await close()
    }

    /// `request`'s head with its path taken relative to the route `endpoint` it matched
    /// (`/images/**` or `/images`): as many non-empty segments off the front as the route
    /// has before its `**`; the rest of the path, and the query, exactly as sent.
    static func head(of request: Request, under endpoint: String) -> HTTPRequest {
        var prefixSegments = endpoint.split(separator: "/").count
        if endpoint.hasSuffix("/**") { prefixSegments -= 1 }
        var head = request.head
        let path = Substring(head.path ?? "/")
        var rest = path[...]
        for _ in 0..<prefixSegments {
            rest = rest.drop(while: { $0 == "/" })
            rest = rest.drop(while: { $0 != "/" && $0 != "?" })
        }
        head.path = rest.isEmpty || rest.first == "?" ? "/" + rest : String(rest)
        return head
    }
}
