// Loops generation for profilers (perf, valgrind): profile-generator [ROUNDS] [generate|context|stencil|stencil-dictionaries]
import DataModelParser
import Foundation
import StencilPort
import SwiftGenerator
import SyntheticModel

func run() throws {
    let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5
    let stage = CommandLine.arguments.dropFirst(2).first ?? "generate"
    let model = try ModelParser.parse(Array(SyntheticModel.contents().utf8), path: "Synthetic.xcdatamodel/contents").model
    let generator = try SwiftGenerator()
    let modelContext = generator.context(for: model).context
    let context = try stage == "stencil-dictionaries" ? StencilPort.dictionary(modelContext) : StencilPort.objects(modelContext)
    let port = StencilPort()
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let elapsed = try clock.measure {
            switch stage {
            case "context": _ = generator.context(for: model)
            case let stage where stage.hasPrefix("stencil"): _ = try port.files(for: context)
            default: _ = generator.generate(model)
            }
        }
        print(stage, elapsed)
    }
}

try run()
