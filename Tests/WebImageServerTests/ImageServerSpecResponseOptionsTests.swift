import Foundation
import Testing
@testable import WebImageServer

/// The response options `filename=`, `attachment` and `cachebuster=` are taken out of the
/// spec before the transform reads it.
@Suite struct ImageServerSpecResponseOptionsTests {
    @Test func theyLeaveTheTransformAlone() throws {
        let spec = try ImageServerSpec(
            "resize=40|filename=a b.png|attachment|cachebuster=v2", presets: [:], onlyPresets: false)
        #expect(spec.operations == "resize=40")
        let disposition = try ContentDisposition(filename: "a b.png", isAttachment: true)
        #expect(spec.disposition == disposition)
        #expect(spec.cacheBuster == "v2")
        let plain = try ImageServerSpec("resize=40", presets: [:], onlyPresets: false)
        #expect(plain.disposition == nil && plain.cacheBuster == nil)
        let inline = try ImageServerSpec("resize=40|filename=a.png", presets: [:], onlyPresets: false)
        #expect(inline.disposition?.isAttachment == false)
    }

    @Test func aPresetMayCarryThem() throws {
        let spec = try ImageServerSpec("preset=download", presets: ["download": "resize=40|attachment"], onlyPresets: true)
        #expect(spec.operations == "resize=40")
        #expect(spec.disposition?.headerValue(for: .png) == "attachment")
        // Only presets: a name or a download may be asked for, a cache buster may not.
        #expect(try ImageServerSpec("preset=p|filename=a.png|attachment", presets: ["p": "resize=4"], onlyPresets: true).disposition != nil)
        #expect(throws: ImageServerError.self) {
            try ImageServerSpec("preset=p|cachebuster=1", presets: ["p": "resize=4"], onlyPresets: true)
        }
    }

    @Test(arguments: [
        "resize=40|filename=", "resize=40|filename=a|filename=b", "resize=40|filename=..", "resize=40|attachment|attachment",
        "resize=40|attachment=yes", "resize=40|cachebuster=", "resize=40|cachebuster=a b", "resize=40|cachebuster=a/b",
        "resize=40|cachebuster=1|cachebuster=2", "resize=40|cachebuster=" + String(repeating: "a", count: 65),
        "filename=a.png|cachebuster=1",
    ])
    func badOptionsAreRefused(text: String) {
        #expect(throws: ImageServerError.self) { try ImageServerSpec(text, presets: [:], onlyPresets: false) }
    }
}
