import Benchmark
import DataModelParser
import StencilPort
import SwiftGenerator
import SyntheticModel

/// Generate Swift for the synthetic 1,000-entity model (goal: ≤ 1 s), against rendering the same
/// template context with Stencil, SwiftGen's engine, through the same templates ported to it.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(20), maxIterations: 10)
    let bytes = Array(SyntheticModel.contents().utf8)

    Benchmark("Generate 1,000-entity model: parse, context, render") { benchmark in
        let generator = try SwiftGenerator()
        for _ in benchmark.scaledIterations {
            let model = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model
            blackHole(generator.generate(model))
        }
    }

    Benchmark("Generate 1,000-entity model: context and render only") { benchmark in
        let generator = try SwiftGenerator()
        let model = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(generator.generate(model))
        }
    }

    /// Stencil renders the same context, built and converted beforehand (not timed), with the
    /// same templates ported to it; it must write exactly the same files.
    func stencil(_ name: String, _ convert: @escaping @Sendable (ModelContext) throws -> [String: Any]) {
        Benchmark(name) { benchmark in
            let generator = try SwiftGenerator()
            let model = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model
            let context = try convert(generator.context(for: model).context)
            let port = StencilPort()
            let theirs = try port.files(for: context)
            precondition(generator.generate(model).files == theirs, "the Stencil port must render exactly what the generator writes")
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try port.files(for: context))
            }
        }
    }
    stencil("Stencil: render the same context as objects (its fastest form)", StencilPort.objects)
    stencil("Stencil: render the same context as dictionaries (as SwiftGen does)", StencilPort.dictionary)
}
