/// The objects a context most recently made for to-one relationships, held strongly.
///
/// A relationship keeps its destinations as IDs, so that related objects never keep each other
/// alive. Without this, a destination nobody holds goes away as soon as it is read, and the next
/// object reaching it makes and loads it again: walking 10,000 employees to their 100 departments
/// would read a department row 10,000 times. Core Data avoids that with a row cache; here the last
/// `capacity` destinations made stay alive, which bounds the memory and keeps the rows of the few
/// objects many others point at.
struct RecentlyReachedObjects {
    static let capacity = 1_024

    private var objects: [ManagedObject] = []
    /// Where the next object goes once the buffer is full: the oldest one's place.
    private var next = 0

    mutating func keep(_ object: ManagedObject) {
        if objects.count < Self.capacity {
            objects.append(object)
        } else {
            objects[next] = object
            next = (next + 1) % Self.capacity
        }
    }

    mutating func removeAll() {
        objects.removeAll()
        next = 0
    }
}
