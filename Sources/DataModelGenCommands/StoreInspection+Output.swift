/// The two printed forms of an inspection: JSON for tools, tables for people.
extension StoreInspection {
    /// `{"Entity": [{"objectID": …, "attribute": …, "relationship": …}, …], …}`, keys in model order.
    func json() -> String {
        var out = "{"
        for (entityIndex, entity) in entities.enumerated() {
            out += entityIndex == 0 ? "\n" : ",\n"
            out += "  \(Self.quoted(entity.entityName)): ["
            for (rowIndex, row) in entity.rows.enumerated() {
                out += rowIndex == 0 ? "\n    {" : ",\n    {"
                for (keyIndex, key) in entity.keys.enumerated() {
                    out += (keyIndex == 0 ? "\n" : ",\n") + "      \(Self.quoted(key)): \(Self.json(row[keyIndex]))"
                }
                out += "\n    }"
            }
            out += entity.rows.isEmpty ? "]" : "\n  ]"
        }
        return out + (entities.isEmpty ? "}" : "\n}")
    }

    /// One table per entity: a title with the object count, a header of keys, a line per object.
    func tables(maximumWidth: Int = 36) -> String {
        var out = ""
        for entity in entities {
            out += "\(entity.entityName) (\(entity.rows.count) object\(entity.rows.count == 1 ? "" : "s"))\n"
            guard !entity.rows.isEmpty else {
                out += "\n"
                continue
            }
            let cells = entity.rows.map { row in row.map { Self.cell($0, maximumWidth: maximumWidth) } }
            let widths = entity.keys.indices.map { column in
                cells.reduce(entity.keys[column].count) { max($0, $1[column].count) }
            }
            func line(_ values: [String]) -> String {
                // Pad every column but the last, so lines carry no trailing spaces.
                zip(values, widths).enumerated().map { column, cell in
                    column == values.count - 1 ? cell.0 : cell.0 + String(repeating: " ", count: cell.1 - cell.0.count)
                }.joined(separator: "  ") + "\n"
            }
            out += line(entity.keys)
            out += line(widths.map { String(repeating: "-", count: $0) })
            for row in cells { out += line(row) }
            out += "\n"
        }
        return out
    }

    private static func json(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .number(let text): text
        case .bool(let value): value ? "true" : "false"
        case .text(let text): quoted(text)
        case .list(let items): "[" + items.map(quoted).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\(quoted($0.name)): \(json($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A value on one line, shortened to `maximumWidth` characters; object IDs as `Entity/p<n>`.
    private static func cell(_ value: Value, maximumWidth: Int) -> String {
        let flat = text(of: value).map { $0.isNewline ? " " : String($0) }.joined()
        return flat.count <= maximumWidth ? flat : flat.prefix(maximumWidth - 1) + "…"
    }

    static func text(of value: Value) -> String {
        switch value {
        case .null: "nil"
        case .number(let text): text
        case .bool(let value): value ? "true" : "false"
        case .text(let text): shortObjectID(text) ?? text
        case .list(let items): "[" + items.map { shortObjectID($0) ?? $0 }.joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\($0.name): \(text(of: $0.value))" }.joined(separator: ", ") + "}"
        }
    }

    /// `Book/p3` for `x-coredata://<store>/Book/p3`.
    private static func shortObjectID(_ text: String) -> String? {
        guard text.hasPrefix("x-coredata://") else { return nil }
        return text.split(separator: "/").suffix(2).joined(separator: "/")
    }
}

/// Values in JSON written by `JSONEncoder` (`inspect --history`), as ``StoreInspection/json()`` writes them.
extension StoreInspection.Value: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .number(let text):
            if let integer = Int64(text) { try container.encode(integer) } else { try container.encode(Double(text) ?? 0) }
        case .bool(let value): try container.encode(value)
        case .text(let text): try container.encode(text)
        case .list(let items): try container.encode(items)
        case .object(let members): try container.encode(Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
        }
    }
}
