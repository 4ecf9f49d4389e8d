import DataStore
import Foundation

/// A store's persistent history as `inspect --history` prints it: JSON for tools, a list for people.
struct HistoryReport: Encodable {
    struct Transaction: Encodable {
        /// The transaction number: `--after` takes it.
        var token: Int64
        var timestamp: String
        var author: String?
        var contextName: String?
        var changes: [Change]

        private enum CodingKeys: String, CodingKey {
            case token, timestamp, author, contextName, changes
        }

        /// Every key, `null` included, so that tools find the same keys in every transaction.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(token, forKey: .token)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(author, forKey: .author)
            try container.encode(contextName, forKey: .contextName)
            try container.encode(changes, forKey: .changes)
        }
    }

    struct Change: Encodable {
        var changeType: String
        var entity: String
        var objectID: String
        /// Sorted; `null` for inserts and deletes.
        var updatedProperties: [String]?
        /// A delete's preserved values, by attribute name; left out when it kept none.
        var tombstone: [String: StoreInspection.Value]?

        private enum CodingKeys: String, CodingKey {
            case changeType, entity, objectID, updatedProperties, tombstone
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(changeType, forKey: .changeType)
            try container.encode(entity, forKey: .entity)
            try container.encode(objectID, forKey: .objectID)
            try container.encode(updatedProperties, forKey: .updatedProperties)
            try container.encodeIfPresent(tombstone, forKey: .tombstone)
        }
    }

    var transactions: [Transaction]

    init(_ history: [HistoryTransaction]) {
        transactions = history.map { transaction in
            Transaction(
                token: transaction.transactionNumber,
                timestamp: transaction.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                author: transaction.author, contextName: transaction.contextName,
                changes: transaction.changes.map { change in
                    Change(
                        changeType: "\(change.changeType)", entity: change.changedObjectID.entityName,
                        objectID: change.changedObjectID.description, updatedProperties: change.updatedProperties?.sorted(),
                        tombstone: change.tombstone.flatMap { $0.isEmpty ? nil : $0.mapValues(StoreInspection.value(of:)) })
                })
        }
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One paragraph per transaction: its token, time, author and context, then a line per change.
    func text() -> String {
        guard !transactions.isEmpty else { return "No transactions.\n" }
        return transactions.map { transaction in
            let who = [transaction.author.map { "author \($0)" }, transaction.contextName.map { "context \($0)" }].compactMap { $0 }
            let heading = (["Transaction \(transaction.token)", transaction.timestamp] + who).joined(separator: "  ")
            let changes = transaction.changes.map { change in
                "  \(change.changeType.padding(toLength: 6, withPad: " ", startingAt: 0))  \(change.objectID)"
                    + (change.updatedProperties.map { ": " + $0.joined(separator: ", ") } ?? "")
                    + (change.tombstone.map { "  kept " + StoreInspection.text(of: .object($0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })) } ?? "")
            }
            return ([heading] + (changes.isEmpty ? ["  (no changes)"] : changes)).joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }
}
