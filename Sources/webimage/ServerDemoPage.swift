#if Server
import Foundation
import WebImage
import WebImageServer

/// The page `webimage serve --demo` shows at `/`: a grid of the demo's sample images,
/// each through the server at a few sizes and formats — a centre fill and a smart fill
/// side by side among them — so a person can look at what it makes in a browser.
enum ServerDemoPage {
    /// The transformations each sample is shown with, and their captions.
    static let variants: [(spec: String, caption: String)] = [
        ("resize=160|format=jpeg,q=80", "160 px JPEG"),
        ("resize=160|format=webp,q=80", "160 px WebP"),
        ("resize=160x160,fill|round=24|format=png", "160×160 filled, rounded PNG"),
        ("resize=160x100,fill|format=jpeg,q=80", "160×100 centre fill"),
        ("resize=160x100,fill,smart|format=jpeg,q=80", "160×100 smart fill (attention)"),
        ("resize=160x100,fill,smart=entropy|format=jpeg,q=80", "160×100 smart fill (entropy)"),
        ("resize=320|grayscale|format=auto", "320 px grey, format=auto"),
    ]

    /// The HTML for `sources`, signing each path with `signer` (or `_` without one).
    static func html(sources: [URL], signer: ImageURLSigner?) -> String {
        var rows = ""
        for source in sources {
            rows += "<tr><th>\(escape(source.lastPathComponent))</th>"
            for variant in variants {
                let path = "/\(encode(variant.spec))/plain/\(encode(source.absoluteString))"
                let signature = signer?.signature(for: path) ?? "_"
                rows += "<td><img loading=\"lazy\" src=\"/\(signature)\(path)\" alt=\"\(escape(variant.caption))\"></td>"
            }
            rows += "</tr>\n"
        }
        let header = variants.map { "<th>\(escape($0.caption))</th>" }.joined()
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>webimage serve — demo</title>
            <style>body{font:14px system-ui,sans-serif;margin:2em;background:#f4f4f4}
            table{border-collapse:collapse}td,th{padding:6px;border-bottom:1px solid #ddd;vertical-align:middle}
            img{display:block;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}</style></head>
            <body><h1>webimage serve</h1>
            <p>Each sample of the demo set, fetched once by the server and transformed by the spec in its URL.
            A broken sample shows the server's refusal instead of an image.</p>
            <p id="status">Loading…</p>
            <table><tr><th>source</th>\(header)</tr>
            \(rows)</table>
            <script>\(statusScript)</script></body></html>

            """
    }

    /// Keeps the status line counting the images loaded and broken (also as `data-loaded`,
    /// `data-broken` and `data-total`, which the headless-browser test reads).
    private static let statusScript = """
        const status = document.getElementById("status");
        function count() {
          const images = Array.from(document.images);
          const loaded = images.filter(i => i.complete && i.naturalWidth > 0).length;
          const broken = images.filter(i => i.complete && i.naturalWidth === 0).length;
          status.textContent = `${loaded} of ${images.length} images loaded` + (broken ? `, ${broken} broken` : "");
          Object.assign(status.dataset, { loaded, broken, total: images.length });
        }
        for (const image of document.images) {
          image.addEventListener("load", count);
          image.addEventListener("error", count);
        }
        count();
        """

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
#endif
