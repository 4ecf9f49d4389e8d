/// The moments of an object's life a class acts on, by Core Data's names and where Core Data
/// calls them. Conform a generated class in an extension and implement the moments it needs;
/// the others do nothing.
///
///     extension Note: ManagedObjectLifecycle {
///         public func awakeFromInsert() {
///             created = Date()            // set once, when the note is made
///         }
///         public func prepareForDeletion() {
///             attachment?.removeFile()    // what lives outside the store goes with the note
///         }
///     }
///
/// Core Data declares these as methods to override; a Swift extension cannot override, so a
/// class conforms instead, and an entity whose class does not conform costs nothing.
public protocol ManagedObjectLifecycle: ManagedObject {
    /// Called once, when the object is inserted into its context (`init(context:)`,
    /// `insertObject(entityName:)`), after it has the model's default values: the place for values
    /// set when an object is made, such as a creation date or a new UUID. What it sets is part of
    /// the insert. A child context's save that moves the object into its parent does not call it
    /// again.
    func awakeFromInsert()

    /// Called when the object's values have come from the store (a fetch, a fault filled, a
    /// parent context's values in a child), at their first use: the place for values derived from
    /// stored ones and kept in properties of your own. Values set here are changes a save writes,
    /// so set only what is not stored.
    func awakeFromFetch()

    /// Called for every object a save writes — inserted, changed or deleted — before the save
    /// validates them: the place to keep a modification date or other stored values in step.
    /// Changes made here are saved with the rest (set a value only when it differs, or every save
    /// changes the object again); objects deleted here follow their delete rules.
    func willSave()

    /// Called for every object a save wrote, once it is written and the object shows what was
    /// saved (a deleted object is then no longer in its context).
    func didSave()

    /// Called once when a save is about to delete the object, before its delete rules apply: its
    /// relationships still hold their destinations. The place to remove what lives outside the
    /// store. An inserted object merged into another by a uniqueness constraint (an upsert) is
    /// not told: its values live on in the other.
    func prepareForDeletion()

    /// Called before the object turns into a fault (`refresh(_:mergeChanges:)`); its values are
    /// still readable.
    func willTurnIntoFault()

    /// Called after the object turned into a fault: the place to release what was derived from
    /// its values.
    func didTurnIntoFault()
}

extension ManagedObjectLifecycle {
    public func awakeFromInsert() {}
    public func awakeFromFetch() {}
    public func willSave() {}
    public func didSave() {}
    public func prepareForDeletion() {}
    public func willTurnIntoFault() {}
    public func didTurnIntoFault() {}
}

extension ManagedObject {
    /// The object as a `ManagedObjectLifecycle`, when its class is one.
    var lifecycle: (any ManagedObjectLifecycle)? {
        entity.hasLifecycle ? self as? any ManagedObjectLifecycle : nil
    }
}
