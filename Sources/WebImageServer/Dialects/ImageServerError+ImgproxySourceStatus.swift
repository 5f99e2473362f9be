import HTTPTypes

extension ImageServerError {
    /// The failure as imgproxy answers a source that does not answer success ("Source image
    /// is unreachable"): the source's own status for a 4xx (a 403 is answered 403), 502
    /// for a 5xx, 404 for any other (a redirect that is not followed); every other failure
    /// as it is.
    var answeringSourceStatusAsImgproxy: ImageServerError {
        guard let sourceStatus else { return self }
        var answer = self
        switch sourceStatus {
        case 400..<500: answer.status = HTTPResponse.Status(code: sourceStatus)
        case 500...: answer.status = .badGateway
        default: answer.status = .notFound
        }
        answer.message = "source image is unreachable"
        return answer
    }
}
