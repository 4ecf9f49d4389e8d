@testable import DataStore
import DataModelParser
import Foundation
import Testing

/// Fetched rows whose one to-one leads to the same object share one array of relationship values;
/// each object still changes its own, and rows of entities with other relationships never get
/// another entity's array.
@Suite struct SharedRelationshipValuesTests {
    /// People, and notes each owned by one; reminders are notes with tags of their own, so a
    /// reminder's relationship values have a slot more than a note's.
    static let model: ManagedObjectModel = {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Person" representedClassName="Person">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="owner" inverseEntity="Note"/>
                </entity>
                <entity name="Note" representedClassName="Note">
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="notes" inverseEntity="Person"/>
                </entity>
                <entity name="Reminder" representedClassName="Reminder" parentEntity="Note">
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="reminders" inverseEntity="Tag"/>
                </entity>
                <entity name="Tag" representedClassName="Tag">
                    <attribute name="label" optional="YES" attributeType="String"/>
                    <relationship name="reminders" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Reminder" inverseName="tags" inverseEntity="Reminder"/>
                </entity>
            </model>
            """
        return ManagedObjectModel(model: try! ModelParser.parse(Array(xml.utf8), path: "Notes.xcdatamodel/contents").model)
    }()

    /// A store of two people, each owning `notesEach` notes, the notes of both interleaved.
    static func storeOfNotes(notesEach: Int, reminders: Bool = false) throws -> PersistentStore {
        let store = try TestStores.newStore(model)
        let context = store.newContext()
        let people = try ["Ada", "Grace"].map { name in
            let person = try context.insertObject(entityName: "Person")
            try person.setValue(name, forKey: "name")
            return person
        }
        for index in 0..<(2 * notesEach) {
            let note = try context.insertObject(entityName: reminders && index % 3 == 0 ? "Reminder" : "Note")
            try note.setValue("note \(index)", forKey: "text")
            try note.setValue(people[index % 2], forKey: "owner")
        }
        try context.save()
        return store
    }

    static func owner(_ note: ManagedObject) -> String? {
        (note.value(forKey: "owner") as? ManagedObject)?.value(forKey: "name") as? String
    }

    static func number(_ note: ManagedObject) -> Int {
        Int((note.value(forKey: "text") as! String).dropFirst("note ".count))!
    }

    @Test func notesOfOneOwner_shareTheirRelationshipValues() throws {
        let store = try Self.storeOfNotes(notesEach: 50)
        let context = store.newContext()
        let notes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(notes.count == 100)
        for note in notes { #expect(Self.owner(note) == (Self.number(note) % 2 == 0 ? "Ada" : "Grace")) }
        // Two arrays for a hundred notes: one per owner.
        let arrays = Set(notes.map { $0.relationshipValues.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
        #expect(arrays.count == 2)
    }

    @Test(arguments: TestedEngine.available) func changingOneNotesOwner_leavesTheOthers(_ engine: TestedEngine) async throws {
        try await TestStores.withNewStore(Self.model, on: engine) { store throws in
            let context = store.newContext()
            let ada = try context.insertObject(entityName: "Person")
            try ada.setValue("Ada", forKey: "name")
            let grace = try context.insertObject(entityName: "Person")
            try grace.setValue("Grace", forKey: "name")
            for index in 0..<10 {
                let note = try context.insertObject(entityName: "Note")
                try note.setValue("note \(index)", forKey: "text")
                try note.setValue(ada, forKey: "owner")
            }
            try context.save()

            let reader = store.newContext()
            let notes = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Note")).sorted { Self.number($0) < Self.number($1) }
            let graceHere = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first { $0.value(forKey: "name") as? String == "Grace" })
            try notes[3].setValue(graceHere, forKey: "owner")
            try notes[7].setValue(nil, forKey: "owner")
            #expect(notes.map(Self.owner) == ["Ada", "Ada", "Ada", "Grace", "Ada", "Ada", "Ada", nil, "Ada", "Ada"])
            #expect(notes.filter(\.hasChanges).map(Self.number) == [3, 7])
            try reader.save()

            let checking = store.newContext()
            let stored = try checking.fetch(FetchRequest<ManagedObject>(entityName: "Note")).sorted { Self.number($0) < Self.number($1) }
            #expect(stored.map(Self.owner) == ["Ada", "Ada", "Ada", "Grace", "Ada", "Ada", "Ada", nil, "Ada", "Ada"])
        }
    }

    @Test func notesAndRemindersOfOneOwner_eachHaveTheirEntitysRelationships() throws {
        let store = try Self.storeOfNotes(notesEach: 30, reminders: true)
        let context = store.newContext()
        let notes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
        #expect(notes.count == 60)
        var reminders = 0
        for note in notes {
            #expect(Self.owner(note) == (Self.number(note) % 2 == 0 ? "Ada" : "Grace"))
            // A reminder read after a note of the same owner has its tags' slot, not the note's values.
            #expect(note.relationshipValues.count == note.entity.relationships.count)
            if note.entity.name == "Reminder" {
                reminders += 1
                #expect((note.value(forKey: "tags") as? Set<ManagedObject>)?.isEmpty == true)
            }
        }
        #expect(reminders == 20)
    }
}
