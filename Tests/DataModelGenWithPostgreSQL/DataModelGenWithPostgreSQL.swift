import DataModelGenCommands
import PostgreSQLCommands

/// `datamodel-gen` as `swift build --traits PostgreSQL` builds it, for the tests of its PostgreSQL
/// stores: the same commands, with the same support installed.
@main
enum DataModelGenWithPostgreSQL {
    static func main() async {
        ServerStores.install(PostgreSQLStoreCommands())
        await DataModelGen.main()
    }
}
