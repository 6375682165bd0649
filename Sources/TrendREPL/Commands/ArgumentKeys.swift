import CommandLanguage
import Foundation
import Vocabulary

/// Every value Trend's commands read is declared once, as a key: its placeholder (what usage lines and refusals show)
/// and its type. A declaration names the key (`.value(.when, …)`) and the handler takes the value back by it
/// (`arguments[.when]`, a `WhenInput?`): no value is looked up by a string. These are the keys several screens share;
/// each screen declares its own beside its commands.
extension ArgumentKey where Value == WhenInput { static var when: Self { .init("WHEN") } }
extension ArgumentKey where Value == NamedRange { static var range: Self { .init("RANGE") } }
extension ArgumentKey where Value == URL { static var file: Self { .init("FILE") } }
/// A note, or a text to find.
extension ArgumentKey where Value == String { static var text: Self { .init("TEXT") } }
