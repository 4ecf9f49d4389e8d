import DataStore
import Foundation
import StoreFixtures

/// Stores of the generated entities: employees in departments for the traversal benchmark, and
/// objects of 1 and 20 attributes for the memory measurement.
public enum GeneratedFixtures {
    /// A new store holding `TraversalFixture`'s departments and employees, written by DataStore:
    /// departments have `Z_PK` 1…100 and employees 1…10,000, in the order of their indices.
    public static func traversalStoreURL() throws -> URL {
        let url = StoreFixtures.newStoreURL()
        let context = try PersistentStore(url: url, model: Fixtures.model).newContext()
        let departments = (0..<TraversalFixture.departmentCount).map { index in
            let department = Department(context: context)
            department.name = TraversalFixture.departmentName(index)
            return department
        }
        for index in 0..<TraversalFixture.employeeCount {
            let employee = Employee(context: context)
            employee.name = TraversalFixture.employeeName(index)
            employee.department = departments[TraversalFixture.departmentIndex(ofEmployee: index)]
        }
        try context.save()
        return url
    }

    /// A new store holding `StoreFixtures.objectCount` objects of `Narrow` (one attribute) or
    /// `Wide` (twenty: the five of `Item`, four times over), with `Item`'s values.
    public static func storeURL(of entity: ManagedObject.Type) throws -> URL {
        let url = StoreFixtures.newStoreURL()
        let context = try PersistentStore(url: url, model: Fixtures.model).newContext()
        for index in 0..<StoreFixtures.objectCount {
            let object = try context.insertObject(entityName: entity.entityName)
            for attribute in object.entity.attributes {
                try object.setValue(value(of: attribute.name, index: index), forKey: attribute.name)
            }
        }
        try context.save()
        return url
    }

    /// Object `index`'s value of the attribute named `name`: `Item`'s value of the attribute whose
    /// name it begins with.
    private static func value(of name: String, index: Int) -> Any? {
        if name.hasPrefix("name") { return StoreFixtures.name(index) }
        if name.hasPrefix("price") { return StoreFixtures.price(index) }
        if name.hasPrefix("quantity") { return Int64(index) }
        if name.hasPrefix("isActive") { return index % 2 == 0 }
        return StoreFixtures.added(index)
    }
}

extension GeneratedFixtures {
    /// DataStore's traversal: the employees fetched, each one's department reached through the
    /// generated relationship (a fault the first time, loaded once per department).
    public static func traversal(_ context: ObjectContext) throws -> Int {
        try context.fetch(Employee.fetchRequest()).reduce(0) { $0 + ($1.department?.name?.utf8.count ?? 0) }
    }
}
