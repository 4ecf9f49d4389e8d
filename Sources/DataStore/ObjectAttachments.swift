/// What an object keeps beyond its identity and its generated class's stored properties, in one
/// word: most objects have current values of one kind or none — a buffer row of attribute values
/// (classes without stored properties), relationship values, or both — and only an object with
/// values kept apart by a change, a version beyond 32 bits or an observer pays for a box holding
/// everything.
enum ObjectAttachments {
    case empty
    /// The buffer holding the object's row of attribute values, and no relationship values.
    case values(AttributeValues.Buffer)
    /// Relationship values by slot, and no attribute values in a buffer.
    case relationships([RelationshipValue])
    /// Both, as a loaded object of a class without stored properties has them.
    case valuesAndRelationships(LoadedValues)
    case several(ObjectExtras)

    /// The simplest case that holds `buffer` and `relationships`.
    init(buffer: AttributeValues.Buffer?, relationships: [RelationshipValue]) {
        switch (buffer, relationships.isEmpty) {
        case (nil, true): self = .empty
        case (let buffer?, true): self = .values(buffer)
        case (nil, false): self = .relationships(relationships)
        case (let buffer?, false): self = .valuesAndRelationships(LoadedValues(valueBuffer: buffer, relationships: relationships))
        }
    }

    /// The simplest case that holds `extras`' contents: `extras` itself while it holds more than
    /// current values.
    init(_ extras: ObjectExtras) {
        if extras.holdsOnlyValues {
            self.init(buffer: extras.valueBuffer, relationships: extras.relationships)
        } else {
            self = .several(extras)
        }
    }
}

/// A buffer row of attribute values and relationship values together.
final class LoadedValues {
    /// What `valueBuffer` holds while its buffer is moved out to be changed (`takeValueBuffer()`).
    /// It holds no values and is never written, so sharing it across threads is safe.
    nonisolated(unsafe) static let placeholder = AttributeValues.Buffer.create(capacity: 0)

    @exclusivity(unchecked) var valueBuffer: AttributeValues.Buffer
    @exclusivity(unchecked) var relationships: [RelationshipValue]

    init(valueBuffer: AttributeValues.Buffer, relationships: [RelationshipValue]) {
        self.valueBuffer = valueBuffer
        self.relationships = relationships
    }
}

/// An object's attachments when its current values are not all it keeps: the values as last read
/// from or written to the store once they differ from the current ones, a version too large for
/// the object itself, or its observation registrar. Made when first needed, and given up when the
/// object no longer needs it.
final class ObjectExtras {
    @exclusivity(unchecked) var valueBuffer: AttributeValues.Buffer?
    @exclusivity(unchecked) var relationships: [RelationshipValue]
    /// The attribute values as last saved, once one changed.
    @exclusivity(unchecked) var savedAttributes: SavedAttributeValues?
    /// The relationship values as last saved, once one changed.
    @exclusivity(unchecked) var savedRelationships: [RelationshipValue]?
    @exclusivity(unchecked) var observationBox: ObservationBox?
    /// The version when it does not fit the object's 32 bits, else 0 (which always fits): kept
    /// without an optional's tag, for the box's size.
    @exclusivity(unchecked) var largeVersion: Int64 = 0

    init(valueBuffer: AttributeValues.Buffer? = nil, relationships: [RelationshipValue] = []) {
        self.valueBuffer = valueBuffer
        self.relationships = relationships
    }

    /// Whether the box holds nothing but current values, which the object's one word holds.
    var holdsOnlyValues: Bool {
        savedAttributes == nil && savedRelationships == nil && largeVersion == 0 && observationBox == nil
    }
}

/// The object's attachments, read and written by what they hold.
extension ManagedObject {
    /// The buffer holding the object's row of attribute values (see `attributeValues`).
    var valueBuffer: AttributeValues.Buffer? {
        get {
            switch attachments {
            case .values(let buffer): buffer
            case .valuesAndRelationships(let loaded): loaded.valueBuffer
            case .several(let extras): extras.valueBuffer
            case .empty, .relationships: nil
            }
        }
        set {
            switch attachments {
            case .empty, .values: attachments = newValue.map(ObjectAttachments.values) ?? .empty
            case .relationships(let relationships):
                attachments = ObjectAttachments(buffer: newValue, relationships: relationships)
            case .valuesAndRelationships(let loaded):
                if let newValue { loaded.valueBuffer = newValue } else { attachments = .relationships(loaded.relationships) }
            case .several(let extras):
                extras.valueBuffer = newValue
                attachments = ObjectAttachments(extras)
            }
        }
    }

    /// Moves the buffer out, so that it stays uniquely referenced while it is changed; set
    /// `valueBuffer` after. Whatever else the object holds stays where it is.
    func takeValueBuffer() -> AttributeValues.Buffer? {
        switch attachments {
        case .values(let buffer):
            attachments = .empty
            return buffer
        case .valuesAndRelationships(let loaded):
            defer { loaded.valueBuffer = LoadedValues.placeholder }
            return loaded.valueBuffer
        case .several(let extras):
            defer { extras.valueBuffer = nil }
            return extras.valueBuffer
        case .empty, .relationships: return nil
        }
    }

    /// Relationship values by slot; empty while the object is a fault.
    var relationshipValues: [RelationshipValue] {
        get {
            switch attachments {
            case .relationships(let relationships): relationships
            case .valuesAndRelationships(let loaded): loaded.relationships
            case .several(let extras): extras.relationships
            case .empty, .values: []
            }
        }
        set {
            switch attachments {
            case .empty, .relationships: attachments = newValue.isEmpty ? .empty : .relationships(newValue)
            case .values(let buffer): attachments = ObjectAttachments(buffer: buffer, relationships: newValue)
            case .valuesAndRelationships(let loaded):
                if newValue.isEmpty { attachments = .values(loaded.valueBuffer) } else { loaded.relationships = newValue }
            case .several(let extras):
                extras.relationships = newValue
                attachments = ObjectAttachments(extras)
            }
        }
        _modify {
            switch attachments {
            case .relationships(var relationships):
                // Moved out, so that the array stays uniquely referenced while it is changed, and
                // set back through the setter, which keeps whatever else the change attached.
                attachments = .empty
                yield &relationships
                self.relationshipValues = relationships
            case .valuesAndRelationships(let loaded):
                yield &loaded.relationships
                if loaded.relationships.isEmpty { attachments = .values(loaded.valueBuffer) }
            case .several(let extras):
                yield &extras.relationships
                attachments = ObjectAttachments(extras)
            case .empty, .values:
                var relationships: [RelationshipValue] = []
                yield &relationships
                if !relationships.isEmpty { self.relationshipValues = relationships }
            }
        }
    }

    /// The relationship value in `slot`, read in place; `nil` while the object holds none.
    func relationshipValue(atSlot slot: Int) -> RelationshipValue? {
        switch attachments {
        case .relationships(let relationships): slot < relationships.count ? relationships[slot] : nil
        case .valuesAndRelationships(let loaded): slot < loaded.relationships.count ? loaded.relationships[slot] : nil
        case .several(let extras): slot < extras.relationships.count ? extras.relationships[slot] : nil
        case .empty, .values: nil
        }
    }

    /// The box of what the object's one word cannot hold, if it has one.
    var extrasIfAny: ObjectExtras? {
        if case .several(let extras) = attachments { extras } else { nil }
    }

    /// Changes what only the box holds, in a box made for it when the object has none, given up
    /// again when the change leaves nothing the one word cannot hold.
    func withExtras<Result>(_ change: (ObjectExtras) -> Result) -> Result {
        let extras: ObjectExtras
        switch attachments {
        case .several(let existing): extras = existing
        case .empty: extras = ObjectExtras()
        case .values(let buffer): extras = ObjectExtras(valueBuffer: buffer)
        case .relationships(let relationships):
            attachments = .empty
            extras = ObjectExtras(relationships: relationships)
        case .valuesAndRelationships(let loaded):
            attachments = .empty
            extras = ObjectExtras(valueBuffer: loaded.valueBuffer, relationships: loaded.relationships)
        }
        defer { attachments = ObjectAttachments(extras) }
        return change(extras)
    }

    /// Registers reads and notifies observers of changes; made on the first read under
    /// observation tracking (see `ManagedObject+Observation.swift`).
    var observationBox: ObservationBox? {
        get { extrasIfAny?.observationBox }
        set {
            guard newValue != nil || extrasIfAny?.observationBox != nil else { return }
            withExtras { $0.observationBox = newValue }
        }
    }
}
