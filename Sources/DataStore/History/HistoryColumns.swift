import Foundation

/// Which bit of `ACHANGE.ZCOLUMNS` stands for which property of an entity, as Core Data numbers
/// them: the row's to-one keys, then their entity columns, their order columns, the attributes'
/// columns, the to-many relationships, and the many-to-many ones. Column-backed groups follow the
/// table's column order, the others their names. Bit 0 is the most significant bit of the first
/// byte, and the blob has one bit per position.
struct HistoryColumns: Sendable {
    /// The property each bit stands for.
    private let names: [String]
    /// The bits a change of a property sets: a to-one sets its key's bit, not its entity or order
    /// column's.
    private let bitsByName: [String: [Int]]

    init(_ entity: EntityDescription) {
        var keys: [(column: Int, name: String)] = [], entityKeys = keys, orderKeys = keys, attributes = keys
        var toMany: [String] = [], manyToMany: [String] = []
        for relationship in entity.relationships where !relationship.isTransient {
            switch relationship.storage {
            case .foreignKey(let column, let entityColumn, let orderColumn):
                keys.append((column, relationship.name))
                if let entityColumn { entityKeys.append((entityColumn, relationship.name)) }
                if let orderColumn { orderKeys.append((orderColumn, relationship.name)) }
            case .joinTable:
                manyToMany.append(relationship.name)
            case .inverseForeignKey, .hiddenColumn:
                toMany.append(relationship.name)
            case .none:
                break
            }
        }
        for attribute in entity.attributes where !attribute.isTransient {
            if let column = attribute.columnIndex {
                attributes.append((column, attribute.name))
            } else {
                attributes += attribute.leaves.compactMap { leaf in leaf.columnIndex.map { ($0, attribute.name) } }
            }
        }
        func byColumn(_ list: [(column: Int, name: String)]) -> [String] { list.sorted { $0.column < $1.column }.map(\.name) }
        let keyNames = byColumn(keys)
        names = keyNames + byColumn(entityKeys) + byColumn(orderKeys) + byColumn(attributes) + toMany.sorted() + manyToMany.sorted()
        var bitsByName: [String: [Int]] = [:]
        for (bit, name) in names.enumerated() where bit >= keyNames.count + entityKeys.count + orderKeys.count || bit < keyNames.count {
            bitsByName[name, default: []].append(bit)
        }
        self.bitsByName = bitsByName
    }

    /// The blob for a change of `properties`; `nil` when none of them has a bit.
    func data(for properties: Set<String>) -> Data? {
        var bytes = [UInt8](repeating: 0, count: (names.count + 7) / 8)
        var any = false
        for name in properties {
            for bit in bitsByName[name] ?? [] {
                bytes[bit >> 3] |= 0x80 >> UInt8(bit & 7)
                any = true
            }
        }
        return any ? Data(bytes) : nil
    }

    /// The properties whose bits `data` sets; `nil` when the blob is too short for this entity's
    /// properties (written by another version of the model) or sets none.
    func properties(in data: Data) -> Set<String>? {
        guard data.count * 8 >= names.count else { return nil }
        var properties: Set<String> = []
        for (bit, name) in names.enumerated() where data[data.startIndex + bit >> 3] & (0x80 >> UInt8(bit & 7)) != 0 {
            properties.insert(name)
        }
        return properties.isEmpty ? nil : properties
    }
}
