/// Undo and redo: Foundation's `UndoManager` API, which Foundation does not provide on Linux.
/// Set one as a context's `undoManager` and every change made in the context can be undone.
///
///     context.undoManager = UndoManager()
///     book.title = "Emma"
///     context.processPendingChanges()   // ends the event: the edits since the last one are one step
///     context.undo()                    // book.title is back
///
/// Actions registered between two event ends form one group, undone and redone as a whole
/// (`groupsByEvent`, the default). An event ends when a context using the manager processes its
/// pending changes (`processPendingChanges()`, which `save()` also does), and before an undo or
/// redo. Explicit groups (`beginUndoGrouping()` … `endUndoGrouping()`) nest inside events.
///
/// While an asynchronous save of a context among a step's targets writes, `undo()` and `redo()`
/// take the step off its stack at once and apply it when the save ends.
///
/// Targets are not retained: an action whose target is gone is skipped. Used on the isolation of
/// the contexts that use it. Where Foundation's own `UndoManager` is also visible (Apple
/// platforms), write this one as `DataStore.UndoManager`.
public final class UndoManager {
    /// One undoable step: the actions registered in it, undone last first.
    private struct Group {
        var actions: [Action] = []
        var name = ""
    }

    private struct Action {
        weak var target: AnyObject?
        let run: (AnyObject) -> Void
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// Groups begun and not ended yet, innermost last.
    private var openGroups: [Group] = []
    /// Whether the outermost open group was opened by a registration, and ends with the event.
    private var eventGroupIsOpen = false
    /// The group collecting what an undo or redo registers: the step that reverses it.
    private var reversal: Group?
    private var disabledCount = 0

    /// Whether registrations outside an explicit group open a group that ends with the event.
    public var groupsByEvent = true
    /// The most undo steps kept; `0` keeps them all.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }

    public init() {}

    /// Whether an undo is running: what is registered now is the redo.
    public private(set) var isUndoing = false
    /// Whether a redo is running: what is registered now is the undo.
    public private(set) var isRedoing = false
    /// The number of groups open now (explicit ones and the event's).
    public var groupingLevel: Int { openGroups.count }
    /// Whether registrations are recorded (see `disableUndoRegistration()`).
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }
    /// Whether there is a step to undo, recorded or still open.
    public var canUndo: Bool { !undoStack.isEmpty || openGroups.first.map { !$0.actions.isEmpty } == true }
    /// Whether there is an undone step to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the step `undo()` would undo, as given by `setActionName(_:)`.
    public var undoActionName: String { openGroups.first?.name ?? undoStack.last?.name ?? "" }
    /// The name of the step `redo()` would redo.
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Names the step being recorded, for a menu's "Undo Typing".
    public func setActionName(_ name: String) {
        if reversal != nil {
            reversal?.name = name
        } else if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].name = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = name
        }
    }

    /// Stops recording until a matching `enableUndoRegistration()`; calls nest.
    public func disableUndoRegistration() { disabledCount += 1 }
    /// Balances one `disableUndoRegistration()`.
    public func enableUndoRegistration() { disabledCount = max(0, disabledCount - 1) }

    /// Opens a group: everything registered until the matching `endUndoGrouping()` is one step.
    public func beginUndoGrouping() {
        openGroups.append(Group())
    }

    /// Ends the innermost group: an outermost one becomes a step, an inner one part of its parent.
    public func endUndoGrouping() {
        guard let group = openGroups.popLast() else { return }
        if openGroups.isEmpty { eventGroupIsOpen = false }
        if var outer = openGroups.popLast() {
            outer.actions += group.actions
            if outer.name.isEmpty { outer.name = group.name }
            openGroups.append(outer)
        } else if !group.actions.isEmpty {
            undoStack.append(group)
            trim()
        }
    }

    /// Records `handler` as the undo of a change just made to `target`. A registration while
    /// undoing records the redo, and one made otherwise clears what could be redone.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        let action = Action(target: target) { handler($0 as! Target) }
        if reversal != nil {
            reversal?.actions.append(action)
            return
        }
        redoStack.removeAll()
        if openGroups.isEmpty {
            beginUndoGrouping()
            eventGroupIsOpen = groupsByEvent
            openGroups[0].actions.append(action)
            if !groupsByEvent { endUndoGrouping() }
            return
        }
        openGroups[openGroups.count - 1].actions.append(action)
    }

    /// Ends the group that registrations opened for the current event.
    public func endEvent() {
        guard eventGroupIsOpen, openGroups.count == 1 else { return }
        endUndoGrouping()
    }

    /// Undoes the last step, making it redoable. Ends the event first; does nothing while an
    /// explicit group is open.
    public func undo() {
        endEvent()
        guard openGroups.isEmpty, let group = undoStack.popLast() else { return }
        whenTargetsAreFree(group) {
            self.isUndoing = true
            self.redoStack.append(self.run(group))
            self.isUndoing = false
        }
    }

    /// Redoes the last undone step.
    public func redo() {
        endEvent()
        guard openGroups.isEmpty, let group = redoStack.popLast() else { return }
        whenTargetsAreFree(group) {
            self.isRedoing = true
            self.undoStack.append(self.run(group))
            self.isRedoing = false
            self.trim()
        }
    }

    /// Runs `step` now, or once the asynchronous save of a context among `group`'s targets ends:
    /// the step must not change objects that save is bringing in line. The group is off its stack
    /// already, so edits made meanwhile do not change which step runs.
    private func whenTargetsAreFree(_ group: Group, _ step: @escaping () -> Void) {
        let targets = group.actions.lazy.compactMap { $0.target as? ObjectContext }
        guard let saving = targets.first(where: \.isTopContextSavingAsynchronously) else { return step() }
        saving.afterTopContextSave { self.whenTargetsAreFree(group, step) }
    }

    /// Forgets every step, to undo and to redo.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
        eventGroupIsOpen = false
    }

    /// Forgets every action on `target`.
    public func removeAllActions(withTarget target: AnyObject) {
        func keepOthers(_ group: inout Group) { group.actions.removeAll { $0.target === target } }
        for index in undoStack.indices { keepOthers(&undoStack[index]) }
        for index in redoStack.indices { keepOthers(&redoStack[index]) }
        for index in openGroups.indices { keepOthers(&openGroups[index]) }
        undoStack.removeAll { $0.actions.isEmpty }
        redoStack.removeAll { $0.actions.isEmpty }
    }

    /// Runs `group`'s actions, last first, and returns the step that reverses them. Contexts among
    /// the targets then tell their observers, so that lists show an undo as they show any change.
    private func run(_ group: Group) -> Group {
        reversal = Group(name: group.name)
        var contexts: [ObjectContext] = []
        for action in group.actions.reversed() {
            guard let target = action.target else { continue }
            action.run(target)
            if let context = target as? ObjectContext, !contexts.contains(where: { $0 === context }) { contexts.append(context) }
        }
        let reverse = reversal!
        reversal = nil
        for context in contexts {
            context.forgetUndoneChanges()
            context.processPendingChanges()
        }
        return reverse
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }
}
