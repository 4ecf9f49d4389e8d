@testable import DataStore
import DataModel
import Foundation
import GeneratedFailedBanks
import Observation
import Testing
#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// An object keeps its buffer row, relationship values, saved values and registrar in one word,
/// with a box only while it needs more than one of them; whatever the word holds, the values
/// read back the same.
@Suite struct ObjectAttachmentsTests {
    /// Owners with a name and pets; no generated classes, so values live in buffers.
    static let model = ManagedObjectModel(model: BatchRequestTests.petModel)

    /// An owner and a pet, saved, fetched back into a new context.
    private static func savedPair(in store: PersistentStore) throws -> (ObjectContext, owner: ManagedObject, pet: ManagedObject) {
        let writer = store.newContext()
        let owner = try writer.insertObject(entityName: "Owner")
        try owner.setValue("Dorothea", forKey: "name")
        let pet = try writer.insertObject(entityName: "Pet")
        try pet.setValue("Monk", forKey: "name")
        try pet.setValue(owner, forKey: "owner")
        try writer.save()
        let context = store.newContext()
        let fetchedOwner = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).first)
        let fetchedPet = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Pet")).first)
        return (context, fetchedOwner, fetchedPet)
    }

    /// The bytes malloc gave the object at `address`.
    private static func allocatedSize(_ address: UnsafeMutableRawPointer) throws -> Int {
        #if canImport(Darwin)
        return malloc_size(address)
        #else
        // Not in Glibc's module map: looked up as the C library exports it.
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let symbol = try #require(dlsym(nil, "malloc_usable_size"))
        return unsafeBitCast(symbol, to: UsableSize.self)(address)
        #endif
    }

    @Test func anObject_isItsIDFlagsContextAndOneWord() throws {
        let store = try TestStores.newStore(Self.model)
        let owner = try store.newContext().insertObject(entityName: "Owner")
        // 16 bytes of header, 17 of ID, 7 of flags and version, 8 of context and 8 of attachments:
        // 56 bytes, which malloc serves as 56 usable bytes (glibc) or 64 (Darwin).
        let allocated = try withExtendedLifetime(owner) { try Self.allocatedSize(Unmanaged.passUnretained(owner).toOpaque()) }
        #expect(allocated <= 64, "a ManagedObject takes \(allocated) bytes")
        #if canImport(Glibc)
        #expect(allocated == 56)
        #endif
    }

    @Test func aGeneratedObject_keepsOnlyItsRelationshipsInTheWord_andABoxWhileChanged() throws {
        let store = try TestStores.newStore(TestStores.failedBanks)
        let writer = store.newContext()
        let bank = FailedBankInfo(context: writer)
        bank.name = "First Citizens"
        let details = FailedBankDetails(context: writer)
        details.zip = 27_601
        bank.details = details
        try writer.save()

        let context = store.newContext()
        let fetched = try #require(try context.fetch(FetchRequest<FailedBankInfo>()).first)
        #expect(fetched.name == "First Citizens")
        guard case .relationships(let relationships) = fetched.attachments, relationships.count == 1 else {
            Issue.record("an unchanged object of a generated class keeps its relationships alone: \(fetched.attachments)")
            return
        }
        fetched.name = "Second Citizens"
        #expect(fetched.extrasIfAny?.savedAttributes != nil)
        #expect(fetched.changedValues()["name"] as? String == "Second Citizens")
        context.rollback()
        #expect(fetched.name == "First Citizens")
        #expect(fetched.extrasIfAny == nil, "rollback gives the box up")

        fetched.name = "Third Citizens"
        try context.save()
        #expect(fetched.extrasIfAny == nil, "a save gives the box up")
        #expect(fetched.details?.zip == 27_601)
        #expect(try store.newContext().fetch(FetchRequest<FailedBankInfo>()).map(\.name) == ["Third Citizens"])
    }

    @Test func anObjectWithABufferRowAndRelationships_keepsBoth_andTheSavedValuesWhileChanged() throws {
        let store = try TestStores.newStore(Self.model)
        let (context, owner, pet) = try Self.savedPair(in: store)
        #expect(pet.value(forKey: "name") as? String == "Monk")
        guard case .valuesAndRelationships = pet.attachments else {
            Issue.record("a loaded object of a class without properties keeps a row and relationships: \(pet.attachments)")
            return
        }
        #expect((pet.value(forKey: "owner") as? ManagedObject) === owner)

        try owner.setValue("Celia", forKey: "name")
        #expect(owner.extrasIfAny?.savedAttributes?[0] == .string("Dorothea"))
        try context.save()
        guard case .valuesAndRelationships = owner.attachments else {
            Issue.record("a saved object gives its box up: \(owner.attachments)")
            return
        }
        #expect(owner.value(forKey: "name") as? String == "Celia")

        // A relationship change keeps the saved relationships apart, and rollback restores them.
        let other = try context.insertObject(entityName: "Owner")
        try pet.setValue(other, forKey: "owner")
        #expect(pet.extrasIfAny?.savedRelationships != nil)
        context.rollback()
        #expect((pet.value(forKey: "owner") as? ManagedObject) === owner)
        #expect(pet.extrasIfAny?.savedRelationships == nil)
        #expect(try store.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Owner")).map { $0.value(forKey: "name") as? String } == ["Celia"])
    }

    @Test func aFault_holdsNothing_andLoadsItsValuesAgain() throws {
        let (context, owner, pet) = try Self.savedPair(in: TestStores.newStore(Self.model))
        _ = pet.value(forKey: "owner")
        context.refresh(pet, mergeChanges: false)
        guard case .empty = pet.attachments else {
            Issue.record("a refreshed object is a fault holding nothing: \(pet.attachments)")
            return
        }
        #expect(pet.value(forKey: "name") as? String == "Monk")
        #expect((pet.value(forKey: "owner") as? ManagedObject) === owner)
    }

    @Test func anObservedObject_keepsItsRegistrarInTheBox_besideItsValues() throws {
        let (context, owner, _) = try Self.savedPair(in: TestStores.newStore(Self.model))
        let changed = Locked(false)
        withObservationTracking { _ = owner.value(forKey: "name") } onChange: { changed.withLock { $0 = true } }
        let extras = try #require(owner.extrasIfAny)
        #expect(extras.observationBox != nil)
        #expect(extras.valueBuffer != nil)
        try owner.setValue("Celia", forKey: "name")
        #expect(changed.withLock { $0 })
        #expect(owner.value(forKey: "name") as? String == "Celia")
        try context.save()
        let box = try #require(owner.extrasIfAny?.observationBox, "the registrar stays after the saved values go")
        // A primitive write tells no observer, and keeps the same registrar.
        try owner.setPrimitiveValue("Rosamond", forKey: "name")
        #expect(owner.extrasIfAny?.observationBox === box)
        #expect(owner.primitiveValue(forKey: "name") as? String == "Rosamond")
    }

    /// The version goes to the box only when it does not fit 32 bits.
    @Test func aLargeVersion_isKeptInTheBox_untilOneFitsAgain() throws {
        let (context, owner, _) = try Self.savedPair(in: TestStores.newStore(Self.model))
        owner.version = 5_000_000_000
        #expect(owner.version == 5_000_000_000)
        #expect(owner.extrasIfAny?.largeVersion == 5_000_000_000)
        #expect(owner.value(forKey: "name") as? String == "Dorothea")
        owner.version = 8
        #expect(owner.version == 8)
        #expect(owner.extrasIfAny == nil, "nothing kept apart once the version fits")
        withExtendedLifetime(context) {}
    }
}
