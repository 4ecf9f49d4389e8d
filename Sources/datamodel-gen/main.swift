import DataModelGenCommands
#if PostgreSQL
import PostgreSQLCommands

ServerStores.install(PostgreSQLStoreCommands())
#endif

await DataModelGen.main()
