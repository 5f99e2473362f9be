import Hummingbird

/// Admits only `GET` and `HEAD`, on every path: any other method is refused 405 before
/// the router's route (or its not-found answer) is reached.
struct MethodAdmissionMiddleware: RouterMiddleware {
    typealias Context = ImageServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw ImageServerError(.methodNotAllowed, "only GET and HEAD are served")
        }
        return try await next(request, context)
    }
}
