extension Character {
    /// Whether the character is one of the ASCII digits `0` to `9`, as thumbor's URL
    /// patterns read `\d`.
    var isDigitASCII: Bool { ("0"..."9").contains(self) }
}
