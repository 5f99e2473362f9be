/// A map-annotation-like target: a marker whose image is its whole appearance and whose
/// point sits at the middle of the image's bottom edge — SDWebImage's
/// `MKAnnotationView+WebCache`.
///
/// It loads like any ``WebImageTarget``; showing an image also moves the marker by the
/// offset that keeps its point on the map location.
public protocol AnnotationWebImageTarget: WebImageTarget {
    /// Shows `image` as the marker, drawn `centerOffset` points (x right, y down) away from
    /// the location so that the location is the middle of the image's bottom edge.
    func displayMarker(_ image: Image?, centerOffset: (x: Double, y: Double))
}

extension AnnotationWebImageTarget {
    /// Shows `image` as the marker, centred horizontally above the location.
    public func display(_ image: Image?) {
        displayMarker(image, centerOffset: (0, -(image?.size.height ?? 0) / 2))
    }
}
