/// Undo for contexts: each change registers the change that reverses it, made through the same
/// paths (so that undoing registers the redo, and observers hear of it as of any change).
/// Relationship changes are recorded one side at a time, so their inverses undo with them; delete
/// rules applied by a save are recorded too, so undoing a saved delete restores the cascade.
extension ObjectContext {
    /// Undoes the last step of the context's `undoManager`.
    public func undo() { undoManager?.undo() }

    /// Redoes the last undone step of the context's `undoManager`.
    public func redo() { undoManager?.redo() }

    /// Unsaved inserts are undone by forgetting the object; saved ones by deleting it.
    func undoInsert(of object: ManagedObject) {
        guard object.context === self else { return }
        guard isInserted(object) else { return delete(object) }
        forgetInserted(object)
        undoManager?.registerUndo(withTarget: self) { context in context.reinsert(object) }
    }

    /// Unsaved deletes are undone by undeleting the object; saved ones by inserting it again with
    /// its ID, values and relationships.
    func undoDelete(of object: ManagedObject) {
        if object.context === self, isDeleted(object) {
            undelete(object)
        } else if object.context == nil, !object.objectID.isTemporaryID, registeredObject(for: object.objectID) == nil {
            // Inserted again: an inserted object has no saved values.
            object.savedAttributeValuesIfChanged = nil
            object.savedRelationshipValuesIfChanged = nil
            relationshipsChanged = true
            reinsert(object)
        }
    }

    /// Puts a forgotten insert back, with the values it had.
    private func reinsert(_ object: ManagedObject) {
        object.context = self
        register(object)
        trackInserted(object)
        undoManager?.recordInsert(of: object, in: self)
    }
}

extension UndoManager {
    func recordInsert(of object: ManagedObject, in context: ObjectContext) {
        registerUndo(withTarget: context) { $0.undoInsert(of: object) }
    }

    func recordDelete(of object: ManagedObject, in context: ObjectContext) {
        registerUndo(withTarget: context) { $0.undoDelete(of: object) }
    }

    /// Records the value an attribute had before a change.
    func recordChange(of object: ManagedObject, attributeSlot slot: Int, from old: AttributeValue, in context: ObjectContext) {
        registerUndo(withTarget: context) { _ in object.setAttributeValue(old, atSlot: slot) }
    }

    /// Records the value one side of a relationship had before a change.
    func recordChange(of object: ManagedObject, relationshipSlot slot: Int, from recorded: RelationshipValue, in context: ObjectContext) {
        registerUndo(withTarget: context) { context in
            let old = context.withPermanentIDs(recorded)
            if object.context === context {
                context.setRelationshipValue(old, of: object, slot: slot)
            } else if object.context == nil, slot < object.relationshipValues.count {
                // A saved delete whose undo comes next: the value returns with the object.
                let current = object.relationshipValues[slot]
                object.changingRelationship(at: slot, to: old) { object.relationshipValues[slot] = old }
                context.undoManager?.recordChange(of: object, relationshipSlot: slot, from: current, in: context)
            }
        }
    }
}
