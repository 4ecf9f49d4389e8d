import DataModelParser
import DataStore
import Foundation
import Testing

/// The lifecycle calls of `ManagedObjectLifecycle`, each where Core Data makes it, on every engine:
/// each object records the calls it receives, in order.
@Suite struct LifecycleTests {
    /// A note stamps its dates as apps do: `created` once, when inserted; `modified` on each save
    /// that writes it.
    final class Note: ManagedObject, ManagedObjectLifecycle {
        override class var entityName: String { "Note" }
        var calls: [String] = []

        func awakeFromInsert() {
            calls.append("insert")
            try? setValue(Date(timeIntervalSinceReferenceDate: 1), forKey: "created")
        }
        func awakeFromFetch() { calls.append("fetch") }
        func willSave() {
            calls.append(isDeleted ? "willSave deleted" : "willSave")
            // Set only when it differs, or every save would change the note again.
            if !isDeleted, value(forKey: "modified") as? Date != Date(timeIntervalSinceReferenceDate: 2) {
                try? setValue(Date(timeIntervalSinceReferenceDate: 2), forKey: "modified")
            }
        }
        func didSave() { calls.append("didSave") }
        func prepareForDeletion() {
            calls.append("prepare \((value(forKey: "attachments") as? Set<ManagedObject>)?.count ?? -1)")
        }
        func willTurnIntoFault() { calls.append("willFault \(value(forKey: "title") as? String ?? "?")") }
        func didTurnIntoFault() { calls.append("didFault") }
    }

    /// An attachment, deleted with its note (cascade).
    final class Attachment: ManagedObject, ManagedObjectLifecycle {
        override class var entityName: String { "Attachment" }
        var calls: [String] = []
        func prepareForDeletion() { calls.append("prepare") }
        func didSave() { calls.append("didSave") }
    }

    static let model: ManagedObjectModel = {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" representedClassName="Note">
                    <attribute name="created" optional="YES" attributeType="Date"/>
                    <attribute name="modified" optional="YES" attributeType="Date"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="attachments" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Attachment" inverseName="note" inverseEntity="Attachment"/>
                </entity>
                <entity name="Attachment" representedClassName="Attachment">
                    <attribute name="fileName" attributeType="String"/>
                    <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="attachments" inverseEntity="Note"/>
                </entity>
            </model>
            """
        let parsed = try! ModelParser.parse(Array(xml.utf8), path: "Notes.xcdatamodel/contents")
        return ManagedObjectModel(model: parsed.model, classes: [Note.self, Attachment.self])
    }()

    @Test(arguments: TestedEngine.available) func eachCall_comesWhereCoreDataMakesIt(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(Self.model, on: engine) { store throws in
            let context = store.newContext()
            let note = Note(context: context)
            #expect(note.calls == ["insert"])
            #expect(note.value(forKey: "created") as? Date == Date(timeIntervalSinceReferenceDate: 1), "set by awakeFromInsert")
            try note.setValue("First", forKey: "title")
            let attachment = Attachment(context: context)
            try attachment.setValue("a.txt", forKey: "fileName")
            try attachment.setValue(note, forKey: "note")
            try context.save()
            #expect(note.calls == ["insert", "willSave", "didSave"])
            #expect(!context.hasChanges, "what willSave set was saved with the rest")

            // Read elsewhere: told at the first use of values that came from the store.
            let reader = store.newContext()
            let read = try #require(try reader.fetch(FetchRequest<Note>()).first)
            #expect(read.calls.isEmpty, "not before its values are used")
            #expect(read.value(forKey: "title") as? String == "First")
            #expect(read.value(forKey: "modified") as? Date == Date(timeIntervalSinceReferenceDate: 2), "set by willSave, and saved")
            #expect(read.calls == ["fetch"])
            _ = read.value(forKey: "created")
            #expect(read.calls == ["fetch"], "once")

            // A refresh turns it into a fault and back; keeping changes, it loads again at once.
            reader.refresh(read, mergeChanges: false)
            #expect(read.calls == ["fetch", "willFault First", "didFault"])
            _ = read.value(forKey: "title")
            #expect(read.calls == ["fetch", "willFault First", "didFault", "fetch"])
            try read.setValue("Changed", forKey: "title")
            read.calls.removeAll()
            reader.refresh(read, mergeChanges: true)
            #expect(read.calls == ["willFault Changed", "didFault", "fetch"])
            #expect(read.value(forKey: "title") as? String == "Changed")
            reader.rollback()

            // A child context reads through its parent: its objects' values came from the store too.
            let child = reader.newChildContext()
            let inChild = child.object(with: read.objectID) as! Note
            _ = inChild.value(forKey: "title")
            #expect(inChild.calls == ["fetch"])

            // Deleting: told once, before the delete rules run; the attachment goes by cascade.
            context.delete(note)
            try context.save()
            #expect(note.calls == ["insert", "willSave", "didSave", "prepare 1", "willSave deleted", "didSave"])
            #expect(attachment.calls == ["didSave", "prepare", "didSave"])
        }
    }

    /// A deletion rolled back and made again tells the object again.
    @Test func aDeletionRolledBack_isToldAgain() throws {
        let store = try TestStores.newStore(Self.model)
        let context = store.newContext()
        let note = Note(context: context)
        try context.save()
        context.delete(note)
        let invalid = Attachment(context: context)  // no file name: the save fails after the delete rules ran
        #expect(throws: SaveError.self) { try context.save() }
        #expect(note.calls.filter { $0.hasPrefix("prepare") }.count == 1)
        context.rollback()
        _ = invalid
        context.delete(note)
        try context.save()
        #expect(note.calls.filter { $0.hasPrefix("prepare") }.count == 2, "\(note.calls)")
    }

    /// A save that a merge policy tries again tells the objects once.
    @Test func aSaveTriedAgain_tellsOnce() throws {
        let store = try TestStores.newStore(Self.model)
        let setup = store.newContext()
        let note = Note(context: setup)
        try note.setValue("A", forKey: "title")
        try setup.save()
        let mine = store.newContext()
        mine.mergePolicy = .mergeByPropertyObjectTrump
        let read = try #require(try mine.fetch(FetchRequest<Note>()).first)
        _ = read.value(forKey: "title")
        let other = store.newContext()
        try other.fetch(FetchRequest<Note>()).first?.setValue("B", forKey: "title")
        try other.save()
        try read.setValue("C", forKey: "title")
        try mine.save()
        #expect(read.calls.filter { $0 == "willSave" }.count == 1, "\(read.calls)")
        #expect(read.calls.filter { $0 == "didSave" }.count == 1, "\(read.calls)")
    }
}
