import WebImage

extension ImageError {
    /// `{"code":…, "message":…}`, plus `"status"` for HTTP failures.
    var jsonObject: JSONObject {
        var object = JSONObject()
        object.add("code", code.rawValue)
        object.add("message", message)
        if let statusCode { object.add("status", statusCode) }
        return object
    }
}
