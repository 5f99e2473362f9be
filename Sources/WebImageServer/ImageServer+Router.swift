import HTTPTypes
import Hummingbird
import WebImage

extension ImageServer {
    /// The server's routes, each answered by its stages:
    ///
    /// - `/health`: `{"status":"ok"}`, with no work behind it;
    /// - `/`: the configured home page, if any;
    /// - `/info/**`: ``InfoRoute``;
    /// - everything else: ``ImageRoute``.
    ///
    /// ``RequestSpanMiddleware`` (only with a ``tracer``) starts each request's span;
    /// ``AccessLogMiddleware`` answers refusals and logs and counts every request;
    /// ``MethodAdmissionMiddleware`` admits only `GET` and `HEAD`.
    ///
    /// The router matches a path's non-empty segments, but the server's paths are exact:
    /// `/health/` and `//health` are image paths (refused as malformed), as is
    /// `//info/…`. So `/health` and `/info` check the path they were given, and hand any
    /// other to the image route.
    func router() throws(ImageServerConfigurationError) -> Router<ImageServerRequestContext> {
        let deadline = RequestDeadline(timeout: configuration.requestTimeout)
        let manager = self.manager
        workers.start()
        let cached = CachedSources(
            cache: sources, key: { manager.cacheKey(for: $0) }, configuration: configuration, workers: workers)
        let budget = TransformBudget(configuration)
        let memory = MemoryAdmission(capacity: configuration.memoryBudget, wait: .seconds(configuration.memoryWait), metrics: metrics)
        let slots = TransformSlots(maximum: configuration.maxConcurrentRequests)
        let decodedSourceMemory = configuration.decodedSourceCapacity
        let decoded =
            decodedSourceMemory > 0
            ? DecodedSources(capacity: decodedSourceMemory, lifetime: .seconds(configuration.decodedSourceLifetime), metrics: metrics) : nil
        if let decoded { memory.reclaim { [weak decoded] bytes in decoded?.reclaim(bytes) } }
        let fetches = SourceFetches(
            manager: manager,
            limits: SourceFetchLimits(
                maximum: configuration.maxConcurrentFetches, maximumPerHost: configuration.maxFetchesPerHost, metrics: metrics),
            policy: policy, metrics: metrics, maxSourcePixels: configuration.maxSourcePixels)
        let signatures = URLSignatures(configuration)
        let imgproxy =
            configuration.dialects.contains(.imgproxy)
            ? try ImgproxyDialect(configuration.imgproxy, hasWatermark: configuration.watermarks[ImgproxyConfiguration.watermarkName] != nil)
            : nil
        let image = ImageRoute(
            configuration: configuration, signatures: signatures, imgproxy: imgproxy,
            thumbor: configuration.dialects.contains(.thumbor) ? ThumborDialect(configuration: configuration.thumbor) : nil, policy: policy, budget: budget, fetches: fetches,
            sources: cached,
            transforms: TransformRun(sources: cached, budget: budget, memory: memory, slots: slots, metrics: metrics, decoded: decoded),
            results: ResultCache(
                storage: results.diskStorage, memoryLimit: configuration.resultMemoryLimit, metrics: metrics, deadline: deadline),
            slots: slots, memory: memory, deadline: deadline, metrics: metrics)
        let info = InfoRoute(
            signatures: signatures, policy: policy, fetches: fetches, sources: cached, memory: memory, slots: slots, deadline: deadline,
            maxAge: configuration.resultMaxAge)
        let homePage = configuration.homePage

        let router = Router(context: ImageServerRequestContext.self)
        if let tracer { router.add(middleware: RequestSpanMiddleware(tracer: tracer)) }
        router.add(middleware: AccessLogMiddleware(metrics: metrics))
        router.add(middleware: MethodAdmissionMiddleware())
        for method: HTTPRequest.Method in [.get, .head] {
            for path: RouterPath in ["/health", "/health/**"] {
                router.on(path, method: method) { request, context in
                    guard request.uri.path == "/health" else { return try await image.respond(to: request, context: context) }
                    return Response.text("{\"status\":\"ok\"}\n", contentType: "application/json")
                }
            }
            for path: RouterPath in ["/info", "/info/**"] {
                router.on(path, method: method) { request, context in
                    guard request.uri.path.hasPrefix("/info/") else { return try await image.respond(to: request, context: context) }
                    return try await info.respond(to: request)
                }
            }
            router.on("/", method: method) { request, context in
                guard let homePage else { return try await image.respond(to: request, context: context) }
                return Response.text(homePage, contentType: "text/html; charset=utf-8")
            }
            router.on("/**", method: method) { request, context in try await image.respond(to: request, context: context) }
        }
        return router
    }
}
