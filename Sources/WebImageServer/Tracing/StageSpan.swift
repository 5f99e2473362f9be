import Tracing
import WebImage

/// The spans of a request's stages (see <doc:Tracing>), started with the tracer the
/// request's ``RequestSpanMiddleware`` put in its `InstrumentationContext`.
///
/// A server without a tracer has no such middleware, so a stage finds no tracer in the
/// task's context and runs its body alone: reading the task-local context is all tracing
/// costs it, with no span, no attribute and no allocation.
enum StageSpan {
    /// The current context, when it carries a server's tracer; `nil` when tracing is off.
    /// A stage that runs on a thread of its own (a decode, a transform, an encode) reads it
    /// before leaving the task, and starts its spans in it with ``start(_:in:)``.
    static var context: InstrumentationContext? {
        guard let context = InstrumentationContext.current, context[ServerTracerKey.self] != nil else { return nil }
        return context
    }

    /// Runs `body` in a span named `name`, a child of the current span (the body's own
    /// spans are its children); the span records a thrown error and ends when `body`
    /// returns. With tracing off, `body` runs alone and is given `nil`.
    static func run<Value, Failure: Error>(
        _ name: String, _ body: ((any Span)?) async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        guard let context, let span = start(name, in: context) else { return try await body(nil) }
        let outcome = await InstrumentationContext.$current.withValue(span.context) { () async -> Result<Value, Failure> in
            do throws(Failure) {
                return .success(try await body(span))
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = outcome { fail(span, error) }
        span.end()
        return try outcome.get()
    }

    /// Runs `body` in a span named `name` started in `context` (from ``context``, read
    /// before the stage left its task for a thread), ending it when `body` returns; with
    /// `context` `nil` (tracing off), `body` runs alone and is given `nil`.
    static func measure<Value, Failure: Error>(
        _ name: String, in context: InstrumentationContext?, _ body: ((any Span)?) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        guard let span = start(name, in: context) else { return try body(nil) }
        defer { span.end() }
        do throws(Failure) {
            return try body(span)
        } catch {
            fail(span, error)
            throw error
        }
    }

    /// A span named `name` started in `context` (from ``context``), to be ended by the
    /// caller; `nil` when `context` is `nil` (tracing is off).
    static func start(_ name: String, in context: InstrumentationContext?) -> (any Span)? {
        guard let context, let tracer = context[ServerTracerKey.self] else { return nil }
        return tracer.startSpan(name, context: context, ofKind: .internal)
    }

    /// Marks `span` failed by `error`: an `error` status, the server's answer status when the
    /// error is an ``ImageServerError``, and the error as an event.
    static func fail(_ span: any Span, _ error: any Error) {
        if let error = error as? ImageServerError {
            span.attributes["webimage.error.status"] = Int(error.status.code)
        } else if let error = error as? ImageError {
            span.attributes["webimage.error.code"] = "\(error.code)"
        }
        span.setStatus(SpanStatus(code: .error, message: String(describing: error)))
        span.recordError(error)
    }
}
