import Foundation

extension ObjectContext {
    /// The results of a dictionary fetch, each decoded into `type` by its coding keys: a
    /// property per fetched key path or expression name, optional where the value may be nil
    /// (a nil value has no entry, as in Core Data).
    ///
    ///     struct AuthorTotal: Decodable {
    ///         var author: String
    ///         var total: Double
    ///         enum CodingKeys: String, CodingKey { case author = "author.name", total }
    ///     }
    ///     let totals = try context.fetchDictionaries(request, as: AuthorTotal.self)
    ///
    /// Values convert as typed attributes do (integers to `Int`, `Double` or `Bool`, dates,
    /// UUIDs, data); read a to-one key path's object with `row.objectID(_:)` from
    /// `fetchDictionaries(_:)` instead. A row that does not decode throws
    /// ``ContextError/resultDecoding(type:reason:)``.
    public func fetchDictionaries<Object, Row: Decodable>(_ request: FetchRequest<Object>, as type: Row.Type) throws(ContextError) -> [Row] {
        try Self.decode(try fetchDictionaries(request), as: Row.self)
    }

    static func decode<Row: Decodable>(_ rows: [[String: PredicateValue]], as type: Row.Type) throws(ContextError) -> [Row] {
        do {
            return try rows.map { try Row(from: DictionaryResultDecoder(row: $0)) }
        } catch {
            throw .resultDecoding(type: "\(Row.self)", reason: "\(error)")
        }
    }
}

/// Decodes one dictionary result: a keyed container over its entries.
struct DictionaryResultDecoder: Decoder {
    let row: [String: PredicateValue]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(row: row, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a dictionary result is keyed"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a dictionary result is keyed"))
    }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: [String: PredicateValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { row.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { row[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            switch row[key.stringValue] {
            case nil, .attribute(.null)?: true
            default: false
            }
        }

        /// The value of `key` as `T`, an ``AttributeStorable`` type.
        private func value<T>(_ key: Key, as type: T.Type) throws -> T {
            guard let value = row[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the result has no value for '\(key.stringValue)'"))
            }
            let converted: Any? = if case .attribute(let attribute) = value {
                (T.self as? any AttributeStorable.Type)?.init(attributeValue: attribute)
            } else {
                nil
            }
            guard let typed = converted as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath + [key], debugDescription: "'\(key.stringValue)' is \(value), not a \(T.self)"))
            }
            return typed
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key, as: type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key, as: type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key, as: type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key, as: type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key, as: type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Int8(exactlyOrThrow: value(key, as: Int64.self), key, codingPath) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key, as: type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key, as: type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key, as: type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try UInt(exactlyOrThrow: value(key, as: Int64.self), key, codingPath) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try UInt8(exactlyOrThrow: value(key, as: Int64.self), key, codingPath) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try UInt16(exactlyOrThrow: value(key, as: Int64.self), key, codingPath) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try UInt32(exactlyOrThrow: value(key, as: Int64.self), key, codingPath) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try UInt64(exactlyOrThrow: value(key, as: Int64.self), key, codingPath) }

        /// Attribute types (`Date`, `UUID`, `Data`, `URL`, `Decimal`, raw-value enums that are
        /// ``AttributeStorable``), and types that decode themselves from a value.
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if T.self is any AttributeStorable.Type { return try value(key, as: type) }
            return try T(from: ValueDecoder(container: self, key: key))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath + [key], debugDescription: "dictionary results are flat"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath + [key], debugDescription: "dictionary results are flat"))
        }

        func superDecoder() throws -> any Decoder { DictionaryResultDecoder(row: row, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { DictionaryResultDecoder(row: row, codingPath: codingPath + [key]) }
    }

    /// One value of a result, for a type that decodes itself from a single value (a
    /// `RawRepresentable` enum that is not ``AttributeStorable``, a wrapper type).
    struct ValueDecoder<Key: CodingKey>: Decoder, SingleValueDecodingContainer {
        let container: Container<Key>
        let key: Key
        var codingPath: [any CodingKey] { container.codingPath + [key] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try container.nestedContainer(keyedBy: type, forKey: key)
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try container.nestedUnkeyedContainer(forKey: key) }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { (try? container.decodeNil(forKey: key)) ?? true }
        func decode(_ type: Bool.Type) throws -> Bool { try container.decode(type, forKey: key) }
        func decode(_ type: String.Type) throws -> String { try container.decode(type, forKey: key) }
        func decode(_ type: Double.Type) throws -> Double { try container.decode(type, forKey: key) }
        func decode(_ type: Float.Type) throws -> Float { try container.decode(type, forKey: key) }
        func decode(_ type: Int.Type) throws -> Int { try container.decode(type, forKey: key) }
        func decode(_ type: Int8.Type) throws -> Int8 { try container.decode(type, forKey: key) }
        func decode(_ type: Int16.Type) throws -> Int16 { try container.decode(type, forKey: key) }
        func decode(_ type: Int32.Type) throws -> Int32 { try container.decode(type, forKey: key) }
        func decode(_ type: Int64.Type) throws -> Int64 { try container.decode(type, forKey: key) }
        func decode(_ type: UInt.Type) throws -> UInt { try container.decode(type, forKey: key) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try container.decode(type, forKey: key) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try container.decode(type, forKey: key) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try container.decode(type, forKey: key) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try container.decode(type, forKey: key) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try container.decode(type, forKey: key) }
    }
}

private extension FixedWidthInteger {
    /// `value` as this type, or a type mismatch at `key` when it does not fit.
    init<Key: CodingKey>(exactlyOrThrow value: Int64, _ key: Key, _ codingPath: [any CodingKey]) throws {
        guard let exact = Self(exactly: value) else {
            throw DecodingError.typeMismatch(Self.self, .init(codingPath: codingPath + [key], debugDescription: "\(value) does not fit a \(Self.self)"))
        }
        self = exact
    }
}
