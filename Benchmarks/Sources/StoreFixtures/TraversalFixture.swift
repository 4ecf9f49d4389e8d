import Foundation
import GRDB
import GRDBSQLite

/// The traversal benchmark: 10,000 employees, each reaching its department (one of 100) through a
/// to-one relationship and reading its name. The store is written by DataStore from the generated
/// `Employee` and `Department` classes (`GeneratedFixtures`); this is its schema's other readers.
public enum TraversalFixture {
    public static let departmentCount = 100
    public static let employeeCount = 10_000

    /// Employee `index`'s department: employees are spread over the departments in turn.
    public static func departmentIndex(ofEmployee index: Int) -> Int { index % departmentCount }
    public static func departmentName(_ index: Int) -> String { "Department number \(index)" }
    public static func employeeName(_ index: Int) -> String { "Employee number \(index)" }

    /// What a traversal adds up: the length of each employee's department's name, so that every
    /// contender must reach every employee's department.
    public static let checksum = (0..<employeeCount).reduce(0) { sum, index in
        sum + departmentName(departmentIndex(ofEmployee: index)).utf8.count
    }

    public static func expectChecksum(_ sum: Int) {
        precondition(sum == checksum, "traversal added up \(sum), not \(checksum)")
    }

    /// Each employee with its department's name, in one join: what the C API floor and GRDB's
    /// struct records read.
    public static let join = """
        SELECT e.Z_PK, e.ZNAME, d.ZNAME FROM ZEMPLOYEE e JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT ORDER BY e.Z_PK
        """

    /// The floor: the join through SQLite's C API, into structs.
    public static func rawTraversal(_ db: OpaquePointer) -> Int {
        struct EmployeeRow {
            var primaryKey: Int64
            var name: String?
            var departmentName: String?
        }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, join, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var rows: [EmployeeRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(EmployeeRow(
                primaryKey: sqlite3_column_int64(statement, 0),
                name: sqlite3_column_text(statement, 1).map { String(cString: $0) },
                departmentName: sqlite3_column_text(statement, 2).map { String(cString: $0) }))
        }
        return rows.reduce(0) { $0 + ($1.departmentName?.utf8.count ?? 0) }
    }

    /// The floor of any object graph: the employees fetched through SQLite's C API into uniqued
    /// instances, each holding its department as an instance made on first reference, whose row
    /// is read by key when first used — what a context's to-one faults must do at the least. Each
    /// reads the version (`Z_OPT`) a context keeps too.
    public static func uniquedObjectTraversal(_ db: OpaquePointer) -> Int {
        let employees = RawSQLite.IdentityMap<EmployeeObject>(), departments = RawSQLite.IdentityMap<DepartmentObject>()
        var fetch: OpaquePointer?, fault: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT Z_PK, Z_OPT, ZNAME, ZDEPARTMENT FROM ZEMPLOYEE ORDER BY Z_PK", -1, &fetch, nil)
        sqlite3_prepare_v2(db, "SELECT Z_OPT, ZNAME FROM ZDEPARTMENT WHERE Z_PK = ?", -1, &fault, nil)
        defer {
            sqlite3_finalize(fetch)
            sqlite3_finalize(fault)
        }
        // The maps outlive every object, which leaves its map as it goes.
        return withExtendedLifetime((employees, departments)) {
            var fetched: [EmployeeObject] = []
            while sqlite3_step(fetch) == SQLITE_ROW {
                let key = Int(sqlite3_column_int64(fetch, 0))
                if let known = employees[key] {
                    fetched.append(known)
                    continue
                }
                var department: DepartmentObject?
                if sqlite3_column_type(fetch, 3) != SQLITE_NULL {
                    let departmentKey = Int(sqlite3_column_int64(fetch, 3))
                    department = departments[departmentKey] ?? DepartmentObject(key: departmentKey, map: departments)
                }
                let name = sqlite3_column_text(fetch, 2).map { String(cString: $0) }
                fetched.append(EmployeeObject(key: key, version: sqlite3_column_int64(fetch, 1), name: name, department: department, map: employees))
            }
            let sum = fetched.reduce(0) { sum, employee in
                guard let department = employee.department else { return sum }
                if !department.isLoaded {
                    sqlite3_bind_int64(fault, 1, Int64(department.key))
                    if sqlite3_step(fault) == SQLITE_ROW {
                        department.version = sqlite3_column_int64(fault, 0)
                        department.name = sqlite3_column_text(fault, 1).map { String(cString: $0) }
                    }
                    sqlite3_reset(fault)
                    department.isLoaded = true
                }
                return sum + (department.name?.utf8.count ?? 0)
            }
            fetched.removeAll()
            return sum
        }
    }

    /// An employee of the floor above, in its identity map while it lives.
    public final class EmployeeObject {
        let key: Int
        let version: Int64
        let name: String?
        let department: DepartmentObject?
        private unowned(unsafe) let map: RawSQLite.IdentityMap<EmployeeObject>

        init(key: Int, version: Int64, name: String?, department: DepartmentObject?, map: RawSQLite.IdentityMap<EmployeeObject>) {
            (self.key, self.version, self.name, self.department, self.map) = (key, version, name, department, map)
            map[key] = self
        }

        deinit { map[key] = nil }
    }

    /// A department of the floor above: a fault until its row is first read.
    public final class DepartmentObject {
        let key: Int
        var version: Int64 = 0
        var name: String?
        var isLoaded = false
        private unowned(unsafe) let map: RawSQLite.IdentityMap<DepartmentObject>

        init(key: Int, map: RawSQLite.IdentityMap<DepartmentObject>) {
            (self.key, self.map) = (key, map)
            map[key] = self
        }

        deinit { map[key] = nil }
    }

    /// GRDB's struct records: an employee decoded with its department's name from the join.
    public struct EmployeeWithDepartment: FetchableRecord {
        public var primaryKey: Int64
        public var name: String?
        public var departmentName: String?

        public init(row: Row) {
            primaryKey = row[0]
            name = row[1]
            departmentName = row[2]
        }
    }

    public static func grdbTraversal(_ pool: DatabasePool) throws -> Int {
        try pool.read { db in try EmployeeWithDepartment.fetchAll(db, sql: join) }
            .reduce(0) { $0 + ($1.departmentName?.utf8.count ?? 0) }
    }

    /// GRDB `Record` subclasses: the employees fetched, then each one's department fetched by key,
    /// as following a relationship of a record does; with `identities`, a department already in
    /// memory is not fetched again.
    public static func recordTraversal(_ pool: DatabasePool, identities: RecordIdentities<DepartmentRecord>? = nil) throws -> Int {
        try pool.read { db in
            var sum = 0
            for employee in try EmployeeRecord.fetchAll(db, sql: "SELECT Z_PK, ZNAME, ZDEPARTMENT FROM ZEMPLOYEE ORDER BY Z_PK") {
                guard let key = employee.departmentKey else { continue }
                let department: DepartmentRecord?
                if let identities {
                    department = try identities[key] ?? DepartmentRecord.fetchOne(db, key: key).map { identities.register($0, key: key); return $0 }
                } else {
                    department = try DepartmentRecord.fetchOne(db, key: key)
                }
                sum += department?.name?.utf8.count ?? 0
            }
            return sum
        }
    }

    public final class EmployeeRecord: Record {
        public override static var databaseTableName: String { "ZEMPLOYEE" }
        public var primaryKey: Int64
        public var name: String?
        public var departmentKey: Int64?

        public required init(row: Row) throws {
            primaryKey = row[0]
            name = row[1]
            departmentKey = row[2]
            try super.init(row: row)
        }
    }

    public final class DepartmentRecord: Record {
        public override static var databaseTableName: String { "ZDEPARTMENT" }
        public override static var databaseSelection: [any SQLSelectable] { [Column("Z_PK"), Column("ZNAME")] }
        public var primaryKey: Int64
        public var name: String?

        public required init(row: Row) throws {
            primaryKey = row[0]
            name = row[1]
            try super.init(row: row)
        }
    }
}
