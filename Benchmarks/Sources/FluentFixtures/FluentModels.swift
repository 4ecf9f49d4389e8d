import FluentKit
import Foundation
import StoreFixtures

/// The benchmarks' item as a Fluent model on Core Data's table: the class-per-row ORM of server Swift.
/// Dates are Core Data's seconds since 2001, so they are declared as what the column holds.
public final class FluentItem: Model, @unchecked Sendable {
    public static let schema = "ZITEM"

    @ID(custom: "Z_PK", generatedBy: .user) public var id: Int64?
    @Field(key: "Z_ENT") public var entity: Int64
    @Field(key: "Z_OPT") public var version: Int64
    @OptionalField(key: "ZADDED") public var added: Double?
    @Field(key: "ZISACTIVE") public var isActive: Bool
    @OptionalField(key: "ZNAME") public var name: String?
    @Field(key: "ZPRICE") public var price: Double
    @Field(key: "ZQUANTITY") public var quantity: Int64

    public init() {}

    public init(index: Int) {
        id = Int64(index + 1)
        entity = 1
        version = 1
        added = StoreFixtures.added(index).timeIntervalSinceReferenceDate
        isActive = index % 2 == 0
        name = StoreFixtures.name(index)
        price = StoreFixtures.price(index)
        quantity = Int64(index)
    }
}

/// The traversal benchmark's entities as Fluent models.
public final class FluentEmployee: Model, @unchecked Sendable {
    public static let schema = "ZEMPLOYEE"

    @ID(custom: "Z_PK", generatedBy: .user) public var id: Int64?
    @OptionalField(key: "ZNAME") public var name: String?
    @OptionalParent(key: "ZDEPARTMENT") public var department: FluentDepartment?

    public init() {}
}

public final class FluentDepartment: Model, @unchecked Sendable {
    public static let schema = "ZDEPARTMENT"

    @ID(custom: "Z_PK", generatedBy: .user) public var id: Int64?
    @OptionalField(key: "ZNAME") public var name: String?

    public init() {}
}
