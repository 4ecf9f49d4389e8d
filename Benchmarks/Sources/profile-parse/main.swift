import DataModel
import DataModelParser
import Foundation
import SchemaValuesFloor
import StoreSchema
import SyntheticModel

// Loops one stage over the synthetic model for profilers:
// profile-parse [ROUNDS] [parse|validate|schema|schema-floor]
let bytes = Array(SyntheticModel.contents().utf8)
let arguments = Array(CommandLine.arguments.dropFirst())
let rounds = arguments.first.flatMap(Int.init) ?? 20
let stage = arguments.count > 1 ? arguments[1] : "validate"
let model = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model
// For `schema-floor` only: the schema whose values each round makes anew.
let computed = stage == "schema-floor" ? StoreSchema(model: model) : nil
precondition(computed.map { SchemaValuesFloor(valuesOf: $0).holdsAsManyValues(as: $0) } ?? true)
let start = Date()
for _ in 0..<rounds {
    switch stage {
    case "parse": _ = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents")
    case "schema": _ = StoreSchema(model: model)
    case "schema-floor": _ = SchemaValuesFloor(valuesOf: computed!)
    default: _ = ModelValidator().validate(try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model)
    }
}
print("\(stage): ms per round:", Date().timeIntervalSince(start) * 1000 / Double(rounds))
