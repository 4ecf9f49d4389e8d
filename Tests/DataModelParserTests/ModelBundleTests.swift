import DataModel
import DataModelParser
import Foundation
import Testing

/// Which `contents` a path means: bundles, versions, folders and files, and every way that can fail.
@Suite struct ModelBundleTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ModelBundleTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func write(_ text: String, to relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func model(entity: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="\(entity)" syncable="YES"><attribute name="x" optional="YES" attributeType="String"/></entity>
        </model>
        """
    }

    func currentVersion(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name)</string></dict></plist>
        """
    }

    func load(_ relativePath: String, version: String? = nil) throws(ModelLoadingError) -> ModelLoader.Result {
        try ModelLoader().load(root.appendingPathComponent(relativePath).path, version: version)
    }

    func failure(_ relativePath: String, version: String? = nil) -> ModelLoadingError? {
        do { _ = try load(relativePath, version: version); return nil } catch { return error }
    }

    @Test func bundle_readsTheMarkedCurrentVersion() throws {
        try write(model(entity: "One"), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try write(model(entity: "Two"), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        try write(currentVersion("M 2.xcdatamodel"), to: "M.xcdatamodeld/.xccurrentversion")
        let loaded = try load("M.xcdatamodeld")
        #expect(loaded.model.entities.map(\.name) == ["Two"])
        #expect(loaded.model.versionName == "M 2")
        #expect(loaded.availableVersions == ["M", "M 2"])
    }

    @Test func bundle_versionOptionOverridesTheCurrentOne() throws {
        try write(model(entity: "One"), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try write(model(entity: "Two"), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        try write(currentVersion("M 2.xcdatamodel"), to: "M.xcdatamodeld/.xccurrentversion")
        #expect(try load("M.xcdatamodeld", version: "M").model.entities.map(\.name) == ["One"])
        #expect(try load("M.xcdatamodeld", version: "M.xcdatamodel").model.entities.map(\.name) == ["One"])
        let error = failure("M.xcdatamodeld", version: "M 3")
        #expect(error?.reason == .unknownVersion)
        #expect(error?.diagnostic.message == "the bundle has no version 'M 3'; it has 'M', 'M 2'")
    }

    @Test func bundle_withoutCurrentVersion_readsItsOnlyVersion() throws {
        try write(model(entity: "Only"), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        #expect(try load("M.xcdatamodeld").model.entities.map(\.name) == ["Only"])
    }

    @Test func bundle_withSeveralUnmarkedVersions_listsThem() throws {
        try write(model(entity: "One"), to: "M.xcdatamodeld/A.xcdatamodel/contents")
        try write(model(entity: "Two"), to: "M.xcdatamodeld/B.xcdatamodel/contents")
        let error = failure("M.xcdatamodeld")
        #expect(error?.reason == .ambiguousVersion)
        #expect(error?.diagnostic.message == "the bundle has 2 versions and no .xccurrentversion marks one current: 'A', 'B'; choose one with --model-version")
    }

    @Test func bundle_currentVersionNamingAMissingVersion_isAnError() throws {
        try write(model(entity: "One"), to: "M.xcdatamodeld/A.xcdatamodel/contents")
        try write(currentVersion("Gone.xcdatamodel"), to: "M.xcdatamodeld/.xccurrentversion")
        let error = failure("M.xcdatamodeld")
        #expect(error?.reason == .unknownVersion)
        #expect(error?.diagnostic.location.file.hasSuffix("M.xcdatamodeld/.xccurrentversion") == true)
    }

    @Test func bundle_withUnreadableCurrentVersion_isAnError() throws {
        try write(model(entity: "One"), to: "M.xcdatamodeld/A.xcdatamodel/contents")
        try write("not a plist", to: "M.xcdatamodeld/.xccurrentversion")
        #expect(failure("M.xcdatamodeld")?.reason == .malformedXML)
    }

    @Test func bundle_withoutVersions_isNotAModel() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Empty.xcdatamodeld"), withIntermediateDirectories: true)
        #expect(failure("Empty.xcdatamodeld")?.reason == .notAModel)
    }

    @Test func versionFolder_andBareContents_bothLoad() throws {
        try write(model(entity: "Solo"), to: "S.xcdatamodel/contents")
        #expect(try load("S.xcdatamodel").model.entities.map(\.name) == ["Solo"])
        #expect(try load("S.xcdatamodel/contents").model.entities.map(\.name) == ["Solo"])
        #expect(failure("S.xcdatamodel", version: "X")?.reason == .unknownVersion)
    }

    @Test func missingPath_isNotFound() {
        let error = failure("Nowhere.xcdatamodeld")
        #expect(error?.reason == .notFound)
        #expect(error?.diagnostic.message == "no such file or directory")
    }

    @Test func folderWithoutContents_isNotAModel() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Hollow.xcdatamodel"), withIntermediateDirectories: true)
        let error = failure("Hollow.xcdatamodel")
        #expect(error?.reason == .notAModel)
        #expect(error?.diagnostic.message == "the folder has no 'contents' file, so it is not a Core Data model")
    }

    @Test func preXcode4BinaryModel_getsAClearError() throws {
        try write("binary", to: "Old.xcdatamodel/elements")
        try write("binary", to: "Old.xcdatamodel/layout")
        let error = failure("Old.xcdatamodel")
        #expect(error?.reason == .legacyBinaryFormat)
        #expect(error?.diagnostic.message.contains("pre-Xcode 4 binary format") == true)
    }
}
