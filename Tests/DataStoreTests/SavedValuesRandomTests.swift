@testable import DataStore
import Foundation
import Library
import TestSupport
import Testing

/// Random edits of saved objects — values set and set back, saves, rollbacks, refreshes, changes
/// another context saves (merged by a refresh) and changes a child context saves into the
/// object's — against a model of each object's current and saved values: after every step,
/// `changedValues()`, `committedValues(forKeys:)` and the current values must be the model's, and
/// after every save the store must hold the current ones. An object keeps only the saved values of
/// the attributes it changed, so this pins that the others' saved values are their current ones.
///
/// 300 steps by default; `DATASTORE_SAVED_VALUES_STEPS=20000 swift test --filter
/// SavedValuesRandomTests` for the full run. `DATASTORE_SAVED_VALUES_SEED` replays a run.
@Suite struct SavedValuesRandomTests {
    static let steps = ProcessInfo.processInfo.environment["DATASTORE_SAVED_VALUES_STEPS"].flatMap(Int.init) ?? 300

    /// The attributes edited and the values each takes; the first is the one a new book is given.
    static let values: [(name: String, pool: [(any Sendable)?])] = [
        ("title", ["Middlemarch", "Romola", "Felix Holt"]),
        ("notes", [nil, "first edition", "signed"]),
        ("fileSize", [Int64(0), Int64(1_024), Int64(2_048)]),
        ("weight", [nil, 1.5, 2.25]),
        ("legacyCode", [nil, "L-1", "L-2"]),
        ("pageCount", [Int16(0), Int16(320), Int16(880)]),
    ]

    /// A book's values by attribute name, as text: `nil` and `NSNull` both read "nil".
    typealias Values = [String: String]

    static func text(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "nil" }
        return "\(value)"
    }

    @Test(arguments: TestedEngine.available, [true, false])
    func changedAndCommittedValues_followTheEdits(_ engine: TestedEngine, generatedClasses: Bool) async throws {
        let model = generatedClasses ? TestStores.library : ManagedObjectModel(model: Everything.definition)
        try await TestStores.withNewStore(model, on: engine) { store throws in
            var random = SplitMix64.replayable("SavedValuesRandomTests", seedIn: "DATASTORE_SAVED_VALUES_SEED")
            let steps = engine.share(of: Self.steps, fullCountIn: "DATASTORE_SAVED_VALUES_STEPS")
            let context = store.newContext()
            var books: [ManagedObject] = []
            for _ in 0..<3 {
                let book = try context.insertObject(entityName: "Book")
                #expect((book is Library.Book) == generatedClasses)
                for (name, pool) in Self.values { try book.setValue(pool[0], forKey: name) }
                books.append(book)
            }
            try context.save()
            let initial = Dictionary(uniqueKeysWithValues: Self.values.map { ($0.name, Self.text($0.pool[0])) })
            var saved = Array(repeating: initial, count: books.count)
            var current = saved

            for step in 0..<steps {
                let index = Int.random(in: 0..<books.count, using: &random)
                let book = books[index]
                let label = "step \(step)"
                switch Int.random(in: 0..<12, using: &random) {
                case 0:
                    try context.save()
                    saved = current
                    let reader = store.newContext()
                    let stored = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
                    for book in stored {
                        let position = try #require(books.firstIndex { $0.objectID == book.objectID })
                        try #require(Self.read(book) == current[position], "\(label): the stored values")
                    }
                case 1:
                    context.rollback()
                    current = saved
                case 2:
                    context.refresh(book, mergeChanges: true)
                case 3:
                    context.refresh(book, mergeChanges: false)
                    current[index] = saved[index]
                case 4:
                    // Another context saves a change to the book; refreshed with its changes merged,
                    // the book takes the stored value where it had not changed that attribute.
                    let (name, value) = Self.randomEdit(using: &random)
                    let writer = store.newContext()
                    try writer.existingObject(with: book.objectID).setValue(value, forKey: name)
                    try writer.save()
                    if current[index][name] == saved[index][name] { current[index][name] = Self.text(value) }
                    saved[index][name] = Self.text(value)
                    context.refresh(book, mergeChanges: true)
                case 5:
                    // A child context changes the book and saves into this one: a change here, unsaved.
                    let (name, value) = Self.randomEdit(using: &random)
                    let child = context.newChildContext()
                    try child.existingObject(with: book.objectID).setValue(value, forKey: name)
                    try child.save()
                    current[index][name] = Self.text(value)
                default:
                    let (name, value) = Self.randomEdit(using: &random)
                    if let book = book as? Library.Book, Bool.random(using: &random) {
                        Self.setThroughProperty(book, name, value)
                    } else {
                        try book.setValue(value, forKey: name)
                    }
                    current[index][name] = Self.text(value)
                }
                for (position, book) in books.enumerated() {
                    try #require(Self.read(book) == current[position], "\(label): current values of book \(position)")
                    let committed = book.committedValues(forKeys: Self.values.map(\.name)).mapValues(Self.text)
                    try #require(committed == saved[position], "\(label): committed values of book \(position)")
                    let changed = Set(current[position].keys.filter { current[position][$0] != saved[position][$0] })
                    try #require(Set(book.changedValues().keys) == changed, "\(label): changed values of book \(position)")
                }
            }
        }
    }

    /// An attribute to edit and the value it takes, each picked at random.
    static func randomEdit(using random: inout SplitMix64) -> (name: String, value: (any Sendable)?) {
        let (name, pool) = values.randomElement(using: &random)!
        return (name, pool.randomElement(using: &random)!)
    }

    static func read(_ book: ManagedObject) -> Values {
        Dictionary(uniqueKeysWithValues: values.map { ($0.name, text(book.value(forKey: $0.name))) })
    }

    /// Sets the attribute through the generated class's property, as an app does.
    static func setThroughProperty(_ book: Library.Book, _ name: String, _ value: (any Sendable)?) {
        switch name {
        case "title": book.title = value as! String
        case "notes": book.notes = value as? String
        case "fileSize": book.fileSize = value as! Int64
        case "weight": book.weight = value as? Double
        case "legacyCode": book.legacyCode = value as? String
        default: book.pageCount = value as! Int16
        }
    }
}
