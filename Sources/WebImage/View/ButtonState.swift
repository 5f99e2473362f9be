/// The states a button-like target has an image for, as a control's states.
public enum ButtonState: String, Sendable, Hashable, CaseIterable {
    /// Neither pressed, selected nor disabled.
    case normal
    /// Pressed.
    case highlighted
    /// Selected (toggled on).
    case selected
    /// Not accepting input.
    case disabled
}
