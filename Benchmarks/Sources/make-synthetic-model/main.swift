import Foundation
import SyntheticModel

// Writes the synthetic benchmark model: make-synthetic-model [FOLDER.xcdatamodel] [ENTITY_COUNT]
let arguments = CommandLine.arguments.dropFirst()
let folder = arguments.first ?? "Synthetic.xcdatamodel"
let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
try SyntheticModel.contents(entityCount: count).write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
print(folder + "/contents")
