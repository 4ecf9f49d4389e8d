import DataModel
import DataModelParser
import StoreSchema
import Testing

/// Composite attributes' columns as Core Data lays them out. The expected table is the one a
/// SwiftData store of a public app holds for the entity this model reproduces (its `Cocktail`, at
/// framework 1414: `Codable` struct and enum properties stored as composites); the store itself
/// carries no licence, so only its column list is quoted here.
@Suite struct CompositeLayoutTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Cocktail" representedClassName="Cocktail">
                <attribute name="author" optional="YES" attributeType="Composite" composite="Author"/>
                <attribute name="buildOrder" optional="YES" attributeType="Composite" composite="Build"/>
                <attribute name="cocktailName" attributeType="String"/>
                <attribute name="collection" optional="YES" attributeType="Composite" composite="Collection"/>
                <attribute name="collectionName" attributeType="String"/>
                <attribute name="compiledTags" attributeType="Composite" composite="Tags"/>
                <attribute name="favorite" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="glasswareType" attributeType="Composite" composite="Glassware"/>
                <attribute name="historicSpec" optional="YES" attributeType="Composite" composite="HistoricSpec"/>
                <attribute name="ice" optional="YES" attributeType="Composite" composite="Ice"/>
                <attribute name="id" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="isCustomCocktail" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="notes" optional="YES" attributeType="String"/>
                <attribute name="titleCocktail" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="variation" optional="YES" attributeType="Composite" composite="Variation"/>
                <attribute name="variationName" optional="YES" attributeType="String"/>
            </entity>
            <composite name="Author">
                <attribute name="id" attributeType="UUID"/>
                <attribute name="person" attributeType="String"/>
                <attribute name="place" attributeType="String"/>
                <attribute name="year" attributeType="String"/>
            </composite>
            <composite name="Build"><attribute name="instructions" attributeType="Binary"/></composite>
            <composite name="Collection"><attribute name="collection" attributeType="Integer 64"/></composite>
            <composite name="Glassware"><attribute name="glasswareType" attributeType="String"/></composite>
            <composite name="HistoricSpec">
                <attribute name="algonquin" optional="YES" attributeType="String"/>
                <attribute name="alaska" optional="YES" attributeType="String"/>
                <attribute name="betweenTheSheets" optional="YES" attributeType="String"/>
            </composite>
            <composite name="Ice"><attribute name="ice" attributeType="String"/></composite>
            <composite name="Tags">
                <attribute name="flavors" attributeType="Binary"/>
                <attribute name="profiles" attributeType="Binary"/>
                <attribute name="styles" attributeType="Binary"/>
                <attribute name="booze" attributeType="Binary"/>
                <attribute name="nA" attributeType="Binary"/>
            </composite>
            <composite name="Variation"><attribute name="variation" attributeType="String"/></composite>
        </model>
        """

    @Test func leavesAreNamedByThemselves_andPlacedByTheirComposite() throws {
        let model = try ModelParser.parse(Array(Self.xml.utf8), path: "Cocktails.xcdatamodel/contents").model
        let table = try #require(StoreSchema(model: model).tables.first { $0.name == "ZCOCKTAIL" })
        // The store's table, its three `historicSpec` leaves shown of fifteen.
        #expect(table.columns.map(\.name) == [
            "Z_PK", "Z_ENT", "Z_OPT", "ZCOLLECTION", "ZFAVORITE", "ZISCUSTOMCOCKTAIL", "ZTITLECOCKTAIL",
            "ZPERSON", "ZPLACE", "ZYEAR", "ZCOCKTAILNAME", "ZCOLLECTIONNAME", "ZGLASSWARETYPE", "ZALGONQUIN", "ZALASKA",
            "ZBETWEENTHESHEETS", "ZICE", "ZNOTES", "ZVARIATION", "ZVARIATIONNAME",
            "ZID", "ZID1", "ZINSTRUCTIONS", "ZFLAVORS", "ZPROFILES", "ZSTYLES", "ZBOOZE", "ZNA",
        ])
        // The composite's leaf, first by the composite's name, keeps the plain name; the entity's
        // own `id` takes the suffix.
        #expect(table.columns.first { $0.name == "ZID" }?.role == .compositeMember(entity: "Cocktail", attribute: "author", path: ["id"]))
        #expect(table.columns.first { $0.name == "ZID1" }?.role == .attribute(entity: "Cocktail", attribute: "id"))
    }
}
