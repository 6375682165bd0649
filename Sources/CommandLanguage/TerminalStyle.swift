import Foundation

/// How text output is decorated: colours only on a terminal without
/// `NO_COLOR` or `--no-color`, and the width charts are fitted to.
public struct TerminalStyle: Sendable {
    public var colors: Bool
    public var width: Int
    /// Whether long lines are wrapped to `width`: on a terminal, where the
    /// width is the window's; never down a pipe, where a script reads each line whole.
    public var wraps: Bool

    public init(colors: Bool, width: Int = 80, wraps: Bool = false) {
        self.colors = colors
        self.width = max(40, min(width, 400))
        self.wraps = wraps
    }

    /// The lines of `text` fitted to the width, when this style wraps.
    public func fitted(_ text: String) -> String {
        wraps ? TerminalText.wrapped(text, width: width) : text
    }

    public static let plain = TerminalStyle(colors: false)

    /// The ANSI colours the screens use, by their escape code.
    public enum Color: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    }

    public func paint(_ text: String, _ color: Color) -> String {
        colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    public func bold(_ text: String) -> String { paint(text, .bold) }
    public func dim(_ text: String) -> String { paint(text, .dim) }
}
