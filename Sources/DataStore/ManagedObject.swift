import Foundation
import Observation

/// An object of an entity: the base class of generated entity classes, and the class of objects of
/// entities without one.
///
/// Values live in typed slots (`AttributeValue`, destinations as `ObjectID`s) and are read through
/// the object's context: an object fetched or reached through a relationship starts as a fault and
/// loads its row on first access. An object belongs to one context and stays on its isolation.
///
///     let book = Book(context: context)
///     book.title = "Middlemarch"
///     try context.save()
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The entity whose objects this class materialises; generated classes override it.
    open class var entityName: String { String(describing: self) }

    // The identity and storage below are read and written for every fetched row and every property
    // access, always on the context's isolation and never across an overlapping access: the
    // per-access exclusivity checks would cost more than reading the row.

    /// The object's entity, kept by its ID.
    public var entity: EntityDescription { objectID.scope.entity }
    /// The object's identity; temporary until its first save.
    @exclusivity(unchecked) public internal(set) var objectID: ObjectID
    // Declared here, the one-byte and two-byte fields fill the padding after the ID's key, which
    // keeps the object within a smaller allocation size.
    @exclusivity(unchecked) var faultState = FaultState.fault
    /// Which of its context's inserted, updated and deleted sets the object is in.
    @exclusivity(unchecked) var changeFlags: ChangeFlags = []
    /// Where the attribute values are: none yet, `attributeValues`, or the class's stored properties.
    @exclusivity(unchecked) var valueStorage = ValueStorage.none
    /// Whether reads register with observation (the class's `isObservable`): kept here, in
    /// padding, so that a read of an object that does not checks one byte and calls nothing
    /// (`propertyRead`).
    @exclusivity(unchecked) final var registersReads: Bool
    /// Where `attributeValues` starts in `valueBuffer`, and its number of slots: two halfwords
    /// that fill the padding before `context`, where the buffer's row (one `AttributeValues`)
    /// would take a word more. A buffer holds at most a few thousand values, and an entity far
    /// fewer attributes than 65,536.
    @exclusivity(unchecked) var valueStart: UInt16 = 0
    @exclusivity(unchecked) var valueCount: UInt16 = 0
    /// `version` in the four bytes of padding left before `context`; `Int32.min` when it does not
    /// fit, and `savedValues` holds it.
    @exclusivity(unchecked) private var compactVersion: Int32 = 0
    /// The context the object lives in; `nil` once that context is gone or after `reset()`.
    ///
    /// Not retained, and not `weak` (which would slow every retain of the context): the context
    /// sets it to `nil` for every object it forgets and for all of them when it goes.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var context: ObjectContext?

    /// The buffer holding `attributeValues`.
    @exclusivity(unchecked) var valueBuffer: AttributeValues.Buffer?
    /// Relationship values by slot; empty while the object is a fault.
    @exclusivity(unchecked) var relationshipValues: [RelationshipValue] = []
    /// The values as last read from or written to the store, once they differ from the current
    /// ones: `nil` until then, so that an unchanged object holds its values once, and pays one
    /// word for the changes it does not have (see `savedAttributeValues`).
    @exclusivity(unchecked) var savedValues: SavedValues?
    /// Registers reads and notifies observers of changes; made on the first read under
    /// observation tracking (see `ManagedObject+Observation.swift`).
    @exclusivity(unchecked) var observationBox: ObservationBox?
    /// `Z_OPT` as last read or written: the version optimistic locking checks (`-1` for a row
    /// found gone). Every save of a row adds one, so a version beyond 32 bits, two billion saves
    /// of one row, is rare enough to cost an allocation.
    var version: Int64 {
        get { compactVersion != .min ? Int64(compactVersion) : savedValues?.largeVersion ?? 0 }
        set {
            if let compact = Int32(exactly: newValue), compact != .min {
                if compactVersion == .min, let saved = savedValues {
                    saved.largeVersion = nil
                    if saved.isEmpty { savedValues = nil }
                }
                compactVersion = compact
            } else {
                if let savedValues { savedValues.largeVersion = newValue } else { savedValues = SavedValues(largeVersion: newValue) }
                compactVersion = .min
            }
        }
    }

    /// Whether the row's values are in the object (also while it still reports itself a fault).
    var isLoaded: Bool {
        get { faultState != .fault }
        set { faultState = newValue ? .loaded : .fault }
    }

    /// Creates the object's storage; objects are made by contexts (`init(context:)`, fetches,
    /// relationships), never directly.
    public required init(_ creation: ObjectCreation) {
        objectID = creation.objectID
        context = creation.context
        registersReads = creation.objectID.scope.entity.isObservable
    }

    deinit {
        // Called on the unretained context: retaining it here would cost two atomic operations on
        // every object a context lets go.
        guard let context else { return }
        Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef {
            $0.objectWillDeinit(objectID, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// Inserts a new object of this class's entity into `context`, with the model's default values.
    ///
    /// The class must belong to the context's model (generated classes do); use
    /// `context.insertObject(entityName:)` for entities known only at run time.
    public convenience init(context: ObjectContext) {
        guard let entity = context.entity(for: Self.self) else {
            preconditionFailure("\(Self.self) names entity '\(Self.entityName)', which no store of the context holds")
        }
        precondition(
            entity.objectClass == Self.self,
            "entity '\(entity.name)' is materialised as \(entity.objectClass), not \(Self.self): list the class in the ManagedObjectModel")
        self.init(context.creationForInsert(of: entity))
        context.registerInserted(self)
    }

    /// Whether the object is a fault: reading any property first loads its values. An object
    /// fetched with `returnsObjectsAsFaults` (the default) is one until first used, though its
    /// values came with the fetch; using it then reads nothing from the store.
    public var isFault: Bool { faultState == .fault || faultState == .fetchedAsFault }

    /// Whether the object was inserted and not saved yet.
    public var isInserted: Bool { context?.isInserted(self) ?? false }

    /// Whether the object has unsaved changes to its values.
    public var isUpdated: Bool { context?.isUpdated(self) ?? false }

    /// Whether the object is deleted in its context, to be removed by the next save.
    public var isDeleted: Bool { context?.isDeleted(self) ?? false }

    /// Whether the object has unsaved changes of any kind.
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }

    /// Whether a save would write anything of the object: it is inserted or deleted, or a
    /// property's value differs from the saved one. An object set back to its saved values is
    /// still `isUpdated`, but has none, and a save leaves its row alone.
    public var hasPersistentChangedValues: Bool {
        guard let context else { return false }
        return isInserted || isDeleted || (isUpdated && !context.changedKeys(of: self).isEmpty)
    }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    open var description: String {
        "<\(entity.name) \(objectID)\(isFault ? " (fault)" : "")>"
    }

    // MARK: Stored properties, for generated classes

    /// Whether reading a property of this class's objects registers it with Observation
    /// (`withObservationTracking`, `Observations`, SwiftUI). Classes generated with observation off
    /// return `false`: their reads skip the registration, and their objects never notify.
    open class var isObservable: Bool { true }

    /// The model this class was generated from: its entity's attributes (inherited ones first) are
    /// the ones the class keeps in stored properties, which `visitStoredAttributes(_:)` walks.
    ///
    /// When the entity of the model a store opens with has those attributes, by name and type in
    /// the same order, objects keep their values in the properties; otherwise — a class of another
    /// model version, a class that stores nothing — in a value buffer, which holds any value.
    open class var generatedModel: ManagedObjectModel? { nil }

    /// Visits the stored property of each attribute of the entity in `generatedModel`, in slot order.
    /// Generated classes visit their own after `super`'s.
    open func visitStoredAttributes(_ visitor: inout StoredAttributeVisitor) {}

    /// Loads the row if the object is a fault.
    @inline(__always)
    func fulfillIfNeeded() {
        if faultState != .loaded { fire() }
    }

    /// Fills a fault, or ends a fetched object's wait for its first use, and then, when the
    /// values came from the store, tells the object (`awakeFromFetch`), outside any read of the store.
    private func fire() {
        if faultState == .fault { context?.fulfillFault(self) }
        guard faultState != .loaded, faultState != .fault else { return }
        faultState = .loaded
        lifecycle?.awakeFromFetch()
    }
}

/// A changed object's values as last read from or written to the store: the attributes once one
/// changed, the relationships once one changed; and a version too large for the object itself.
/// Boxed, because most objects never change.
final class SavedValues {
    @exclusivity(unchecked) var attributes: AttributeValues?
    @exclusivity(unchecked) var relationships: [RelationshipValue]?
    @exclusivity(unchecked) var largeVersion: Int64?

    init(attributes: AttributeValues? = nil, relationships: [RelationshipValue]? = nil, largeVersion: Int64? = nil) {
        self.attributes = attributes
        self.relationships = relationships
        self.largeVersion = largeVersion
    }

    /// Whether the box holds nothing, and the object can let it go.
    var isEmpty: Bool { attributes == nil && relationships == nil && largeVersion == nil }
}

/// Where an object's values are.
enum FaultState: UInt8 {
    /// Not loaded: the first use reads the row.
    case fault
    /// Loaded by a fetch that returns faults; the first use makes it `loaded` without a read.
    case fetchedAsFault
    /// Loaded from the store and not a fault; the first use makes it `loaded` and calls
    /// `awakeFromFetch`, so that the call happens outside the read that loaded it.
    case fetched
    case loaded
}

/// Where an object's attribute values are.
enum ValueStorage: UInt8 {
    /// Not loaded, or dropped when the object became a fault again.
    case none
    /// In `attributeValues`.
    case buffer
    /// In the stored properties of a generated class.
    case properties
}

/// What a context hands to `ManagedObject.init(_:)`: the ID (with the entity) and context of a new
/// object. Only the runtime makes one.
public struct ObjectCreation {
    let objectID: ObjectID
    /// Not retained, as the object's own reference is not: the context is alive while it makes objects.
    unowned(unsafe) let context: ObjectContext?
}
