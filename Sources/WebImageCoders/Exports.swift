// `import WebImageCoders` brings the image types and coder protocols of WebImageCore and
// every built-in coder (each optional one with its package trait).
@_exported import WebImageBMP
@_exported import WebImageCore
@_exported import WebImageGIF
@_exported import WebImageJPEG
@_exported import WebImagePNG
@_exported import WebImageWebP
#if TIFF
@_exported import WebImageTIFF
#endif
#if AVIF
@_exported import WebImageAVIF
#endif
#if JXL
@_exported import WebImageJXL
#endif
#if HEIF
@_exported import WebImageHEIF
#endif
#if SVG
@_exported import WebImageSVG
#endif
