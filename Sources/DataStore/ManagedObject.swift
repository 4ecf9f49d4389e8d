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
    // Declared here, the small fields fill the seven bytes after the ID's key, so that the object
    // ends after one more word than its ID and context: its attachments.
    /// Which of its context's inserted, updated and deleted sets the object is in, and whether
    /// its reads register with observation.
    @exclusivity(unchecked) var changeFlags: ChangeFlags
    /// `faultState`, `valueStorage` and `valueStart`, in one halfword.
    @exclusivity(unchecked) private var loadState: UInt16 = 0
    /// `version` in 32 bits; `Int32.min` when it does not fit, and the object's extras hold it.
    @exclusivity(unchecked) private var compactVersion: Int32 = 0
    /// The context the object lives in; `nil` once that context is gone or after `reset()`.
    ///
    /// Not retained, and not `weak` (which would slow every retain of the context): the context
    /// sets it to `nil` for every object it forgets and for all of them when it goes.
    public internal(set) var context: ObjectContext? {
        get { contextReference?.takeUnretainedValue() }
        set { contextReference = newValue.map(Unmanaged.passUnretained) }
    }
    @exclusivity(unchecked) private var contextReference: Unmanaged<ObjectContext>?
    /// Attribute values in a buffer, relationship values, saved values and the observation
    /// registrar, in one word (see `ObjectAttachments`).
    @exclusivity(unchecked) var attachments = ObjectAttachments.empty

    /// What `body` answers of the context, read without retaining it: for the checks of every
    /// property write. `nil` without a context.
    func withContext<Result>(_ body: (ObjectContext) -> Result) -> Result? {
        contextReference?._withUnsafeGuaranteedRef(body)
    }

    /// Whether the row is loaded and whether the object reports itself a fault.
    var faultState: FaultState {
        get { FaultState(rawValue: UInt8(truncatingIfNeeded: loadState & 0b11)).unsafelyUnwrapped }
        set { loadState = loadState & ~0b11 | UInt16(newValue.rawValue) }
    }

    /// Where the attribute values are: none yet, `attributeValues`, or the class's stored properties.
    var valueStorage: ValueStorage {
        get { ValueStorage(rawValue: UInt8(truncatingIfNeeded: loadState >> 2 & 0b11)).unsafelyUnwrapped }
        set { loadState = loadState & ~0b1100 | UInt16(newValue.rawValue) << 2 }
    }

    /// The largest `valueStart`: a buffer row starting further in is copied to a buffer of its
    /// own. Writers fill buffers of at most 4,096 values, so their rows all start within reach.
    static let largestValueStart = 4_095

    /// Where `attributeValues` starts in `valueBuffer`, in the halfword's upper twelve bits.
    var valueStart: Int {
        get { Int(loadState >> 4) }
        set {
            assert(newValue <= Self.largestValueStart, "a row start beyond twelve bits")
            loadState = loadState & 0b1111 | UInt16(newValue) << 4
        }
    }

    /// Whether reads register with observation (the class's `isObservable`): kept with the
    /// flags, so that a read of an object that does not checks one bit and calls nothing
    /// (`propertyRead`).
    final var registersReads: Bool { changeFlags.contains(.registersReads) }

    /// `Z_OPT` as last read or written: the version optimistic locking checks (`-1` for a row
    /// found gone). Every save of a row adds one, so a version beyond 32 bits, two billion saves
    /// of one row, is rare enough to cost an allocation.
    var version: Int64 {
        get { compactVersion != .min ? Int64(compactVersion) : extrasIfAny?.largeVersion ?? 0 }
        set {
            if let compact = Int32(exactly: newValue), compact != .min {
                if compactVersion == .min { withExtras { $0.largeVersion = 0 } }
                compactVersion = compact
            } else {
                withExtras { $0.largeVersion = newValue }
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
        contextReference = creation.context
        changeFlags = creation.objectID.scope.entity.isObservable ? .registersReads : []
    }

    deinit {
        // Called on the unretained context: retaining it here would cost two atomic operations on
        // every object a context lets go.
        withContext { $0.objectWillDeinit(objectID, Unmanaged.passUnretained(self).toOpaque()) }
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
    let context: Unmanaged<ObjectContext>?

    init(objectID: ObjectID, context: ObjectContext?) {
        self.objectID = objectID
        self.context = context.map(Unmanaged.passUnretained)
    }
}
