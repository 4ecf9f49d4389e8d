/// A large, realistic model for benchmarks: `entityCount` entities with ~20 attributes of every common
/// type and 3 relationships each (a to-one with its to-many inverse, and a many-to-many), every
/// tenth entity a subentity of the one before, plus fetch indexes and uniqueness constraints.
public enum SyntheticModel {
    public static let attributeTypes = [
        ("Integer 16", "0"), ("Integer 32", "0"), ("Integer 64", "0"), ("Double", "0.0"), ("Float", "0.0"),
        ("Decimal", "0"), ("String", nil), ("Boolean", "NO"), ("Date", nil), ("Binary", nil), ("UUID", nil),
        ("URI", nil),
    ] as [(String, String?)]

    public static func contents(entityCount: Int = 1_000, attributesPerEntity: Int = 20) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        func name(_ index: Int) -> String { "Entity\(index)" }
        for index in 0..<entityCount {
            let isSubentity = index % 10 == 9
            let parent = isSubentity ? " parentEntity=\"\(name(index - 1))\"" : ""
            // A subentity inherits its parent's properties, so its own need other names.
            let prefix = isSubentity ? "sub" : ""
            xml += "    <entity name=\"\(name(index))\" representedClassName=\"\(name(index))\"\(parent) syncable=\"YES\" codeGenerationType=\"class\">\n"
            for attribute in 0..<attributesPerEntity {
                let (type, defaultValue) = attributeTypes[(index + attribute) % attributeTypes.count]
                let optional = defaultValue == nil ? " optional=\"YES\"" : ""
                let defaultText = defaultValue.map { " defaultValueString=\"\($0)\"" } ?? ""
                xml += "        <attribute name=\"\(prefix)attribute\(attribute)\"\(optional) attributeType=\"\(type)\"\(defaultText) usesScalarValueType=\"YES\"/>\n"
            }
            let next = name((index + 1) % entityCount)
            let nextPrefix = (index + 1) % entityCount % 10 == 9 ? "sub" : ""
            let previousPrefix = (index + entityCount - 1) % entityCount % 10 == 9 ? "sub" : ""
            let previous = name((index + entityCount - 1) % entityCount)
            xml += "        <relationship name=\"\(prefix)next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"\(next)\" inverseName=\"\(nextPrefix)previous\" inverseEntity=\"\(next)\"/>\n"
            xml += "        <relationship name=\"\(prefix)previous\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"\(previous)\" inverseName=\"\(previousPrefix)next\" inverseEntity=\"\(previous)\"/>\n"
            xml += "        <relationship name=\"\(prefix)peers\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"\(name(index))\" inverseName=\"\(prefix)peers\" inverseEntity=\"\(name(index))\"/>\n"
            xml += """
                        <fetchIndex name="byAttribute0">
                            <fetchIndexElement property="attribute0" type="Binary" order="ascending"/>
                        </fetchIndex>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="attribute1"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>

                """
        }
        return xml + "</model>\n"
    }
}
