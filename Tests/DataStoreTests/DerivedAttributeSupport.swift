import DataStore
import Foundation
import TestSupport

/// Random edits of the `DerivedAttributes` fixture through key-value coding: every kind of change a
/// derived value depends on (insert, delete, a to-one set, to-many and many-to-many membership, the
/// source attributes).
struct RandomLibraryEdits {
    let context: ObjectContext
    private(set) var shelves: [ManagedObject] = []
    private(set) var books: [ManagedObject] = []
    private(set) var magazines: [ManagedObject] = []
    private(set) var tags: [ManagedObject] = []

    init(context: ObjectContext) {
        self.context = context
    }

    var objects: [ManagedObject] { shelves + books + magazines + tags }

    mutating func apply(using random: inout SplitMix64) throws {
        func pick(_ objects: [ManagedObject]) -> ManagedObject? { objects.randomElement(using: &random) }
        func text() -> String? {
            guard Int.random(in: 0..<8, using: &random) > 0 else { return nil }
            let letters = ["a", "B", "é", "È", "ü", "Å", " ", "z"]
            return (0..<Int.random(in: 0...6, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined()
        }
        // Past 80 objects, deletions win, so that long runs stay about that size.
        let choice = objects.count > 80 && Bool.random(using: &random) ? 11 : Int.random(in: 0..<12, using: &random)
        switch choice {
        case 0:
            let shelf = try context.insertObject(entityName: "Shelf")
            try shelf.setValue(text(), forKey: "name")
            shelves.append(shelf)
        case 1, 2:
            let book = try context.insertObject(entityName: "Book")
            try book.setValue(text(), forKey: "title")
            try book.setValue(Int64.random(in: 0...500, using: &random), forKey: "pages")
            try book.setValue(Bool.random(using: &random) ? pick(shelves) : nil, forKey: "shelf")
            try book.setValue(Set(tags.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }), forKey: "tags")
            books.append(book)
        case 3:
            let magazine = try context.insertObject(entityName: "Magazine")
            try magazine.setValue(text(), forKey: "title")
            magazines.append(magazine)
            if let shelf = pick(shelves) { try move(magazine, to: shelf) }
        case 4:
            let tag = try context.insertObject(entityName: "Tag")
            try tag.setValue(text(), forKey: "name")
            tags.append(tag)
        case 5:
            try pick(books)?.setValue(Bool.random(using: &random) ? pick(shelves) : nil, forKey: "shelf")
        case 6:
            try pick(books)?.setValue(Int64.random(in: 0...500, using: &random), forKey: "pages")
        case 7:
            try pick(books + magazines)?.setValue(text(), forKey: "title")
        case 8:
            try pick(shelves)?.setValue(text(), forKey: "name")
        case 9:
            guard let book = pick(books), let tag = pick(tags) else { return }
            var current = book.value(forKey: "tags") as? Set<ManagedObject> ?? []
            if current.remove(tag) == nil { current.insert(tag) }
            try book.setValue(current, forKey: "tags")
        case 10:
            guard let magazine = pick(magazines), let shelf = pick(shelves) else { return }
            try move(magazine, to: shelf)
        default:
            let all = objects
            guard let victim = pick(all) else { return }
            context.delete(victim)
            shelves.removeAll { $0 === victim }
            books.removeAll { $0 === victim }
            magazines.removeAll { $0 === victim }
            tags.removeAll { $0 === victim }
        }
    }

    /// `magazines` has no inverse: one shelf at a time holds a magazine, as its hidden column can say.
    private func move(_ magazine: ManagedObject, to shelf: ManagedObject) throws {
        for other in shelves {
            var held = other.value(forKey: "magazines") as? Set<ManagedObject> ?? []
            if other === shelf { held.insert(magazine) } else if held.remove(magazine) == nil { continue }
            try other.setValue(held, forKey: "magazines")
        }
    }
}

/// The derived values of the fixture computed in Swift from the source columns — the meaning of
/// each expression — by `Entity/Z_PK`, as text. `rows` reads a query's rows, each cell as text.
struct ExpectedDerivedValues {
    var values: [String: [String: String]] = [:]

    init(_ rows: (String) throws -> [[String]]) throws {
        let shelves = try rows(#"SELECT "Z_PK", "ZNAME" FROM "ZSHELF""#)
        let shelfNames = Dictionary(uniqueKeysWithValues: shelves.map { (key($0[0]), text($0[1])) })
        let publications = try rows(#"SELECT "Z_PK", "Z_ENT", "ZTITLE", "ZPAGES", "ZSHELF", "Z4MAGAZINES" FROM "ZPUBLICATION""#)
        let joins = try rows(#"SELECT "Z_2BOOKS", "Z_5TAGS" FROM "Z_2TAGS""#)
        var pagesByBook: [Int64: Int64] = [:]
        for row in publications {
            let key = key(row[0]), isBook = row[1] == "2"
            var derived = ["searchTitle": describe(text(row[2]).map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) })]
            if isBook {
                pagesByBook[key] = Int64(row[3])
                let shelfName = Int64(row[4]).flatMap { shelfNames[$0] ?? nil }
                derived["shelfName"] = describe(shelfName)
                derived["loudShelfName"] = describe(shelfName?.uppercased())
            }
            values["\(isBook ? "Book" : "Magazine")/\(key)"] = derived
        }
        for (key, name) in shelfNames {
            let books = publications.filter { $0[1] == "2" && Int64($0[4]) == key }
            let magazines = publications.filter { $0[1] == "3" && Int64($0[5]) == key }
            values["Shelf/\(key)"] = [
                "lowerName": describe(name?.lowercased()), "bookCount": "\(books.count)",
                "totalPages": "\(books.reduce(Int64(0)) { $0 + (Int64($1[3]) ?? 0) })", "magazineCount": "\(magazines.count)",
            ]
        }
        for tag in try rows(#"SELECT "Z_PK" FROM "ZTAG""#).map({ key($0[0]) }) {
            let books = joins.filter { key($0[1]) == tag }.map { key($0[0]) }
            values["Tag/\(tag)"] = [
                "bookCount": "\(books.count)", "pageSum": "\(Double(books.reduce(Int64(0)) { $0 + (pagesByBook[$1] ?? 0) }))",
            ]
        }
    }
}

/// The derived columns as stored, in the same form; `updatedAt` (a time) apart.
struct StoredDerivedValues {
    var values: [String: [String: String]] = [:]
    var updatedAt: [Int64: Double] = [:]
    static let entityNames = ["2": "Book", "3": "Magazine", "4": "Shelf", "5": "Tag"]

    init(_ rows: (String) throws -> [[String]]) throws {
        let publications = #"SELECT "Z_PK", "Z_ENT", "ZSEARCHTITLE", "ZSHELFNAME", "ZLOUDSHELFNAME", "ZUPDATEDAT" FROM "ZPUBLICATION""#
        for row in try rows(publications) {
            let key = key(row[0])
            var derived = ["searchTitle": describe(text(row[2]))]
            if row[1] == "2" {
                derived["shelfName"] = describe(text(row[3]))
                derived["loudShelfName"] = describe(text(row[4]))
            }
            values["\(Self.entityNames[row[1]]!)/\(key)"] = derived
            if let time = Double(row[5]) { updatedAt[key] = time }
        }
        for row in try rows(#"SELECT "Z_PK", "ZLOWERNAME", "ZBOOKCOUNT", "ZTOTALPAGES", "ZMAGAZINECOUNT" FROM "ZSHELF""#) {
            values["Shelf/\(row[0])"] = [
                "lowerName": describe(text(row[1])), "bookCount": describe(text(row[2])),
                "totalPages": describe(text(row[3])), "magazineCount": describe(text(row[4])),
            ]
        }
        for row in try rows(#"SELECT "Z_PK", "ZBOOKCOUNT", "ZPAGESUM" FROM "ZTAG""#) {
            values["Tag/\(row[0])"] = ["bookCount": describe(text(row[1])), "pageSum": describe(Double(row[2]))]
        }
    }

    /// The stored derived values of `object`'s row, `updatedAt` included.
    static func row(_ object: ManagedObject, in stored: StoredDerivedValues) -> [String: String]? {
        guard let key = object.objectID.primaryKey, var derived = stored.values["\(object.entity.name)/\(key)"] else { return nil }
        if derived["searchTitle"] != nil { derived["updatedAt"] = describe(stored.updatedAt[key]) }
        return derived
    }

    /// The derived values `object` shows, in the same form.
    static func memory(_ object: ManagedObject) -> [String: String] {
        var derived: [String: String] = [:]
        for attribute in object.entity.attributes where attribute.isDerived {
            derived[attribute.name] = switch object.value(forKey: attribute.name) {
            case let date as Date: describe(date.timeIntervalSinceReferenceDate)
            case let value?: "\(value)"
            case nil: "nil"
            }
        }
        return derived
    }
}

private func describe<Value>(_ value: Value?) -> String {
    value.map { "\($0)" } ?? "nil"
}

/// A cell's text; `nil` for `NULL`.
private func text(_ cell: String) -> String? {
    cell == "NULL" ? nil : cell
}

/// A `Z_PK` cell.
private func key(_ cell: String) -> Int64 {
    Int64(cell) ?? -1
}
