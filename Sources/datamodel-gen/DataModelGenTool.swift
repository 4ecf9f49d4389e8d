import DataModelGenCommands
#if PostgreSQL
import PostgreSQLCommands
#endif

/// `datamodel-gen`: its commands for files and models, and with the package trait `PostgreSQL`,
/// its PostgreSQL stores.
@main
enum DataModelGenTool {
    static func main() async {
        DataModelGen.installCarriedModels()
        #if PostgreSQL
        ServerStores.install(PostgreSQLStoreCommands())
        #endif
        await DataModelGen.main()
    }
}
