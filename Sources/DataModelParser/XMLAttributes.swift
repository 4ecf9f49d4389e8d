import DataModel

/// The attribute names one kind of element understands, as an enum whose case names are the XML names.
protocol XMLVocabulary: CaseIterable, RawRepresentable where RawValue == Int, AllCases == [Self] {
    /// The vocabulary against `XMLNames`; each vocabulary stores `static let table = makeTable()`.
    static var table: XMLVocabularyTable { get }
}

/// A vocabulary's names as global `XMLNames` ids, in both directions.
struct XMLVocabularyTable: Sendable {
    /// Global id of each case, by raw value.
    var ids: [Int]
    /// Whether the vocabulary knows a name, by global id.
    var knows: [Bool]
}

extension XMLVocabulary {
    static func makeTable() -> XMLVocabularyTable {
        var table = XMLVocabularyTable(ids: [], knows: Array(repeating: false, count: XMLNames.ids.count))
        for name in allCases {
            let id = XMLNames.id(of: name.xmlName)
            table.ids.append(id)
            if id >= 0 { table.knows[id] = true }
        }
        return table
    }

    /// The name as written in the XML.
    var xmlName: String { "\(self)" }
}

/// Every attribute name some vocabulary knows, numbered once, so that sorting an element's
/// attributes is array indexing rather than string hashing or comparison.
enum XMLNames {
    private static var vocabularies: [any XMLVocabulary.Type] {
        [
        ModelDecoder.ModelXML.self, ModelDecoder.EntityXML.self, ModelDecoder.AttributeXML.self,
        ModelDecoder.RelationshipXML.self, ModelDecoder.FetchedPropertyXML.self, ModelDecoder.FetchedRequestXML.self,
        ModelDecoder.TemplateXML.self, ModelDecoder.FetchIndexXML.self, ModelDecoder.FetchIndexElementXML.self,
        ModelDecoder.ValueXML.self, ModelDecoder.NameXML.self, ModelDecoder.EntryXML.self,
        ModelDecoder.DiagramElementXML.self,
        ]
    }

    static let ids: [String: Int] = {
        var ids: [String: Int] = [:]
        for vocabulary in vocabularies {
            for name in vocabulary.allNames where ids[name] == nil { ids[name] = ids.count }
        }
        return ids
    }()

    /// The id of `name`, or -1 when no vocabulary knows it.
    static func id(of name: String) -> Int { ids[name] ?? -1 }
}

extension XMLVocabulary {
    fileprivate static var allNames: [String] { allCases.map(\.xmlName) }
}

/// One element's attributes read against a vocabulary. Lookups compare integer name ids over the
/// element's few attributes: no allocation, no string comparison.
struct XMLAttributes<Name: XMLVocabulary> {
    let node: XMLNode

    init(_ node: XMLNode) { self.node = node }

    subscript(name: Name) -> String? {
        let id = Name.table.ids[name.rawValue]
        for attribute in node.attributes where attribute.nameID == id { return attribute.value }
        return nil
    }

    /// The attributes the vocabulary does not know, in document order.
    var unknown: [XMLNode.Attribute] {
        let knows = Name.table.knows
        return node.attributes.filter { $0.nameID < 0 || !knows[$0.nameID] }
    }
}
