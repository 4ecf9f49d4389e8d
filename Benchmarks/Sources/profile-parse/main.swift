import DataModel
import DataModelParser
import SyntheticModel
import Foundation

let bytes = Array(SyntheticModel.contents().utf8)
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "20") ?? 20
let validate = CommandLine.arguments.count < 3
var start = Date()
for _ in 0..<rounds {
    let parsed = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents")
    if validate { _ = ModelValidator().validate(parsed.model) }
}
print("ms per round:", Date().timeIntervalSince(start) * 1000 / Double(rounds))
