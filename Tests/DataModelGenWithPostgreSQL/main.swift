// `datamodel-gen` as `swift build --traits PostgreSQL` builds it, for the tests of its PostgreSQL
// stores: the same commands, with the same support installed.
import DataModelGenCommands
import PostgreSQLCommands

ServerStores.install(PostgreSQLStoreCommands())
await DataModelGen.main()
