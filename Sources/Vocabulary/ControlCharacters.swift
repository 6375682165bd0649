/// The one definition of a control character for text Trend keeps or shows:
/// C0 (tab included), DEL and C1. Notes refuse them when typed; a terminal
/// is shown them escaped.
public enum ControlCharacters {
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
