import DataModel
import StoreSchema

/// A model ready for the runtime: the model values, its store layout and version hashes, and the
/// classes that materialise its entities.
///
/// Generated code builds one as a static value (so the runtime never parses XML); tools that load a
/// model at run time build one from the parsed `Model` and get `ManagedObject` for every entity.
///
///     let model = ManagedObjectModel(model: parsed, classes: [Book.self, Author.self])
///     let store = try PersistentStore(url: storeURL, model: model)
public final class ManagedObjectModel: Sendable {
    public let model: Model
    public let schema: StoreSchema
    public let versionHashes: ModelVersionHashes
    /// `ManagedObject` subclasses, each naming its entity through `entityName`.
    public let classes: [ManagedObject.Type]
    /// Every version of the model's bundle, oldest first, `model` among them: the versions a store
    /// may have been written with, which opening migrates from.
    public let versions: [Model]
    /// The position of the current version, `model`, in ``versions``.
    public let currentVersionIndex: Int
    /// The mapping models compiled with the model (from the `.xcmappingmodel` bundles beside it):
    /// opening a store of an earlier version runs the one that leads on from it, as Core Data runs
    /// the mapping models it finds in the app, after those ``MigrationOptions/mappingModels`` names.
    public let mappingModels: [MappingModel]

    /// - Parameters:
    ///   - model: the current version: the one new stores get and old ones migrate to.
    ///   - classes: `ManagedObject` subclasses, each naming its entity through `entityName`.
    ///     An entity without a class uses its nearest superentity's class, else `ManagedObject`.
    ///   - versions: every version of the bundle, oldest first; `model` is added at the end when
    ///     missing, so the default is a bundle of one version.
    ///   - mappingModels: mapping models between the versions, run where they apply.
    public init(model: Model, classes: [ManagedObject.Type] = [], versions: [Model] = [], mappingModels: [MappingModel] = []) {
        self.model = model
        schema = StoreSchema(model: model)
        versionHashes = ModelVersionHashes(model: model)
        self.classes = classes
        self.mappingModels = mappingModels
        (self.versions, currentVersionIndex) = Model.bundle(versions, current: model)
    }
}
