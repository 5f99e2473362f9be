// `import WebImage` brings the whole library: the image types and coder protocols of
// WebImageCore and the built-in coders of WebImageCoders, as it did before they became
// targets of their own.
@_exported import WebImageCoders
@_exported import WebImageCore
// The transformers, filters and transform spec live in WebImageProcessing; a user of the
// loader finds them where they always were.
@_exported import WebImageProcessing
