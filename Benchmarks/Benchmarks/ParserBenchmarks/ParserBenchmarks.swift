import Benchmark
import DataModel
import DataModelParser
import SchemaValuesFloor
import StoreSchema
import SyntheticModel

/// Parse and validate the synthetic 1,000-entity model from memory (compare with `LibXML2Floor`),
/// and compute its store schema (goal: under 5% of the parse).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(5), maxIterations: 50)
    let bytes = Array(SyntheticModel.contents().utf8)

    Benchmark("Parse 1,000-entity model") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents"))
        }
    }

    Benchmark("Parse + validate 1,000-entity model") { benchmark in
        for _ in benchmark.scaledIterations {
            let parsed = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents")
            blackHole(ModelValidator().validate(parsed.model))
        }
    }

    Benchmark("Store schema of 1,000-entity model") { benchmark in
        let model = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(StoreSchema(model: model))
        }
    }

    // What any computation of that schema pays at least: making its values and releasing them.
    Benchmark("Store schema values alone of 1,000-entity model (floor)") { benchmark in
        let schema = StoreSchema(model: try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model)
        precondition(SchemaValuesFloor(valuesOf: schema).holdsAsManyValues(as: schema))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(SchemaValuesFloor(valuesOf: schema))
        }
    }

    Benchmark("Store schema DDL text of 1,000-entity model") { benchmark in
        let model = try ModelParser.parse(bytes, path: "Synthetic.xcdatamodel/contents").model
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(StoreSchema(model: model).sql())
        }
    }
}
