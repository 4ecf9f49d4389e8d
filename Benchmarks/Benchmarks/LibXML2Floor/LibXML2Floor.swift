import Benchmark
import CLibXML2Floor
import SyntheticModel

/// The floor: libxml2 parsing the same bytes into a DOM and freeing it — what `xmllint --noout`
/// does, minus process start-up.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        maxDuration: .seconds(5), maxIterations: 50)
    let bytes = Array(SyntheticModel.contents().utf8)
    xmlInitParser()

    Benchmark("libxml2 DOM parse of 1,000-entity model (xmllint --noout)") { benchmark in
        for _ in benchmark.scaledIterations {
            bytes.withUnsafeBufferPointer { buffer in
                let document = buffer.withMemoryRebound(to: CChar.self) {
                    xmlReadMemory($0.baseAddress, Int32($0.count), "contents", nil, Int32(XML_PARSE_NONET.rawValue))
                }
                blackHole(document != nil)
                xmlFreeDoc(document)
            }
        }
    }
}
