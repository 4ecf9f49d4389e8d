import DataModel
import Testing

/// Derived facts: parent chains, inherited properties, subentities, roots and inverses.
@Suite struct ModelInheritanceTests {
    static let here = SourceLocation(file: "test")

    /// Vehicle ← Car ← SportCar, Vehicle ← Truck; Person.cars ↔ Vehicle.owner.
    static let model: Model = {
        var vehicle = Entity(name: "Vehicle", isAbstract: true, location: here)
        vehicle.attributes = [Attribute(name: "wheels", type: .integer16, location: here)]
        vehicle.relationships = [
            Relationship(name: "owner", destinationEntityName: "Person", inverseName: "cars", inverseEntityName: "Person", location: here)
        ]
        let car = Entity(
            name: "Car", parentName: "Vehicle", attributes: [Attribute(name: "seats", type: .integer16, location: here)],
            location: here)
        let sportCar = Entity(
            name: "SportCar", parentName: "Car", attributes: [Attribute(name: "topSpeed", type: .double, location: here)],
            location: here)
        let truck = Entity(name: "Truck", parentName: "Vehicle", location: here)
        var person = Entity(name: "Person", location: here)
        person.relationships = [
            Relationship(
                name: "cars", destinationEntityName: "Vehicle", inverseName: "owner", inverseEntityName: "Vehicle",
                isToMany: true, location: here)
        ]
        return Model(path: "test", entities: [vehicle, car, sportCar, truck, person])
    }()

    func entity(_ name: String) throws -> Entity { try #require(Self.model.entity(named: name)) }

    @Test func parentChain_isNearestFirst() throws {
        #expect(Self.model.parentChain(of: try entity("SportCar")).map(\.name) == ["Car", "Vehicle"])
        #expect(Self.model.parentChain(of: try entity("Person")).isEmpty)
        #expect(Self.model.rootEntity(of: try entity("SportCar")).name == "Vehicle")
        #expect(Self.model.rootEntity(of: try entity("Person")).name == "Person")
    }

    @Test func allProperties_includeInheritedOnesFirst() throws {
        let names = Self.model.allProperties(of: try entity("SportCar")).map(\.name)
        #expect(names == ["wheels", "owner", "seats", "topSpeed"])
        #expect(Self.model.allAttributes(of: try entity("Car")).map(\.name) == ["wheels", "seats"])
        #expect(Self.model.allRelationships(of: try entity("Truck")).map(\.name) == ["owner"])
    }

    @Test func subentities_andDescendants() throws {
        #expect(Self.model.subentities(of: try entity("Vehicle")).map(\.name) == ["Car", "Truck"])
        #expect(Self.model.descendants(of: try entity("Vehicle")).map(\.name) == ["Car", "SportCar", "Truck"])
        #expect(Self.model.subentities(of: try entity("SportCar")).isEmpty)
    }

    @Test func inverse_isFoundOnTheDestinationIncludingInheritedRelationships() throws {
        let cars = try #require(try entity("Person").relationship(named: "cars"))
        #expect(Self.model.inverse(of: cars)?.name == "owner")
        let owner = try #require(try entity("Vehicle").relationship(named: "owner"))
        #expect(Self.model.inverse(of: owner)?.name == "cars")
        #expect(Self.model.destination(of: owner)?.name == "Person")
    }

    @Test func inheritedProperty_isFoundByName() throws {
        guard case .attribute(let wheels)? = Self.model.property(named: "wheels", in: try entity("SportCar")) else {
            Issue.record("inherited attribute not found")
            return
        }
        #expect(wheels.type == .integer16)
        #expect(Self.model.entity(try entity("SportCar"), isKindOf: "Vehicle"))
        #expect(!Self.model.entity(try entity("Truck"), isKindOf: "Car"))
    }

    @Test func walks_terminateOnCycles() {
        let a = Entity(name: "A", parentName: "B", location: Self.here)
        let b = Entity(name: "B", parentName: "A", location: Self.here)
        let model = Model(path: "cycle", entities: [a, b])
        #expect(model.parentChain(of: a).map(\.name) == ["B"])
        #expect(model.descendants(of: a).map(\.name) == ["B"])
        #expect(model.allProperties(of: a).isEmpty)
        #expect(ModelValidator().validate(model).filter(\.isError).count == 2)
    }

    @Test func entityIndex_followsMutation() {
        var model = Self.model
        model.entities.append(Entity(name: "Boat", parentName: "Vehicle", location: Self.here))
        #expect(model.entity(named: "Boat") != nil)
        #expect(model.subentities(of: model.entity(named: "Vehicle")!).map(\.name) == ["Car", "Truck", "Boat"])
    }
}
