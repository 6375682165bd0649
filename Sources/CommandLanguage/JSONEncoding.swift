/// Any `Encodable` answer as `JSON`, its keys in the order they are encoded.
extension JSON {
    /// `value` as `JSON`, its keys in the order its `encode(to:)` writes them (a synthesised
    /// one: the order of the properties). An `Int` is an integer, a `Double` a number.
    /// A value that is `JSON` already, or a string, number or Boolean, is taken as it is.
    public init(encoding value: some Encodable) {
        // Every value here is a struct of strings, numbers and arrays: encoding it cannot fail.
        self = (try? OrderedJSONEncoder.boxed(value))?.resolve() ?? .null
    }
}

/// A document built by hand (another screen's part of an answer) inside an answer.
extension JSON: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case let .bool(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .number(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .integer(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .string(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .array(values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case let .object(pairs):
            var container = encoder.container(keyedBy: AnswerKey.self)
            for (key, value) in pairs { try container.encode(value, forKey: AnswerKey(key)) }
        }
    }
}

/// A key known only when the value is encoded (a document's own members).
public struct AnswerKey: CodingKey {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// Where one encoded value lands, filled in by its container.
private final class JSONBox {
    var value: JSON?
    /// The members of an object, in order, while it is being written.
    var members: [(String, JSONBox)] = []
    var elements: [JSONBox] = []
    var kind: Kind = .single

    enum Kind { case single, object, array }

    /// What was written, as `JSON`.
    func resolve() -> JSON {
        switch kind {
        case .single: value ?? .null
        case .object: .object(members.map { ($0.0, $0.1.resolve()) })
        case .array: .array(elements.map { $0.resolve() })
        }
    }
}

private struct OrderedJSONEncoder: Encoder {
    let box: JSONBox
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.kind = .object
        return KeyedEncodingContainer(Keyed<Key>(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.kind = .array
        return Unkeyed(box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box) }

    /// Encodes `value` into a fresh box and returns it, resolved later.
    static func boxed(_ value: some Encodable) throws -> JSONBox {
        let box = JSONBox()
        if let json = primitive(value) {
            box.value = json
        } else {
            try value.encode(to: OrderedJSONEncoder(box: box))
        }
        return box
    }

    static func primitive(_ value: some Encodable) -> JSON? {
        switch value {
        case let value as String: .string(value)
        case let value as Int: .integer(value)
        case let value as Double: .number(value)
        case let value as Bool: .bool(value)
        case let value as JSON: value
        default: nil
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: JSONBox
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { box.members.append((key.stringValue, JSONBox())) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            box.members.append((key.stringValue, try OrderedJSONEncoder.boxed(value)))
        }
        // A missing optional is `null`, not a missing key: scripts read every key of a document.
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

        private mutating func encodeOptional(_ value: (some Encodable)?, _ key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let nested = JSONBox()
            box.members.append((key.stringValue, nested))
            return OrderedJSONEncoder(box: nested).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = JSONBox()
            box.members.append((key.stringValue, nested))
            return OrderedJSONEncoder(box: nested).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { OrderedJSONEncoder(box: box) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let nested = JSONBox()
            box.members.append((key.stringValue, nested))
            return OrderedJSONEncoder(box: nested)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: JSONBox
        var codingPath: [any CodingKey] { [] }
        var count: Int { box.elements.count }

        mutating func encodeNil() throws { box.elements.append(JSONBox()) }
        mutating func encode(_ value: some Encodable) throws { box.elements.append(try OrderedJSONEncoder.boxed(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = JSONBox()
            box.elements.append(nested)
            return OrderedJSONEncoder(box: nested).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = JSONBox()
            box.elements.append(nested)
            return OrderedJSONEncoder(box: nested).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let nested = JSONBox()
            box.elements.append(nested)
            return OrderedJSONEncoder(box: nested)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: JSONBox
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { box.value = .null }
        mutating func encode(_ value: some Encodable) throws {
            if let json = OrderedJSONEncoder.primitive(value) {
                box.value = json
            } else {
                try value.encode(to: OrderedJSONEncoder(box: box))
            }
        }
    }
}
