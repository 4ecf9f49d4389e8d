/// The expression of a derived attribute, in the forms Core Data's model editor accepts: the store
/// computes the value when it saves, in SQL triggers (format reference §2.8).
///
///     DerivationExpression(parsing: "chapters.@count")           // .count(relationship: "chapters")
///     DerivationExpression(parsing: "canonical:(author.name)")   // .text(.canonical, keyPath: ["author", "name"])
public enum DerivationExpression: Sendable, Equatable {
    /// `now()`: the time of the row's last save.
    case now
    /// `canonical:(path)`, `lowercase:(path)` or `uppercase:(path)`: a string attribute of the entity
    /// or of a to-one destination, transformed.
    case text(TextDerivation, keyPath: [String])
    /// `path`: an attribute of a to-one destination, copied.
    case value(keyPath: [String])
    /// `relationship.@count` or `count:(relationship)`: the number of destinations of a to-many relationship.
    case count(relationship: String)
    /// `relationship.attribute.@sum` or `sum:(relationship.attribute)`: the sum of an attribute over
    /// the destinations of a to-many relationship.
    case sum(relationship: String, attribute: String)

    /// The string transformations of `TextDerivation`s, named as in the expression.
    public enum TextDerivation: String, Sendable, CaseIterable {
        /// Lowercased, without diacritics, in normalization form C (the form `[cd]` comparisons use).
        case canonical
        case lowercase
        case uppercase
    }

    /// The expression `text` states, or `nil` when it is not one of the supported forms.
    public init?(parsing text: String) {
        let text = String(text.trimmingSpaces)
        if text.filter({ $0 != " " }) == "now()" {
            self = .now
            return
        }
        if let colon = text.firstIndex(of: ":") {
            let function = String(text[..<colon]).trimmingSpaces, argument = String(text[text.index(after: colon)...]).trimmingSpaces
            guard argument.hasPrefix("("), argument.hasSuffix(")"), let path = Self.keyPath(String(argument.dropFirst().dropLast())) else { return nil }
            // NSExpression's function forms of the aggregates, as Core Data prints them.
            if function == "count", path.count == 1 {
                self = .count(relationship: path[0])
            } else if function == "sum", path.count == 2 {
                self = .sum(relationship: path[0], attribute: path[1])
            } else if let derivation = TextDerivation(rawValue: String(function)) {
                self = .text(derivation, keyPath: path)
            } else {
                return nil
            }
            return
        }
        guard let path = Self.keyPath(text, allowingOperator: true) else { return nil }
        switch path.last {
        case "@count" where path.count == 2: self = .count(relationship: path[0])
        case "@sum" where path.count == 3: self = .sum(relationship: path[0], attribute: path[1])
        case let last? where !last.hasPrefix("@"): self = .value(keyPath: path)
        default: return nil
        }
    }

    /// The dot-separated names of `text`; only the last may be an `@` operator.
    private static func keyPath(_ text: String, allowingOperator: Bool = false) -> [String]? {
        let names = String(text.trimmingSpaces).split(separator: ".", omittingEmptySubsequences: false).map { String($0) }
        let isName = { (name: String) in
            !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(name.first?.isNumber ?? true)
        }
        for (index, name) in names.enumerated() {
            let isOperator = allowingOperator && index == names.count - 1 && index > 0 && name.hasPrefix("@")
            guard isName(isOperator ? String(name.dropFirst()) : name) else { return nil }
        }
        return names
    }
}

/// A derived attribute's expression with every name it uses found in the model: what the store
/// schema needs to build the triggers that maintain the value.
public enum Derivation: Sendable, Equatable {
    /// `now()`.
    case now
    /// A transformed string of the entity or of a to-one destination.
    case text(DerivationExpression.TextDerivation, DerivationSource)
    /// A copied attribute of a to-one destination.
    case value(DerivationSource)
    /// The number of destinations of `relationship`, declared on `owner`.
    case count(relationship: Relationship, owner: String)
    /// The sum of `attribute` (declared on `attributeOwner`) over the destinations of `relationship`.
    case sum(relationship: Relationship, owner: String, attribute: Attribute, attributeOwner: String)
}

/// Where a derived value is read: an attribute of the entity itself, or of the destination of one
/// of its to-one relationships.
public struct DerivationSource: Sendable, Equatable {
    /// The to-one relationship read through; `nil` for the entity's own attribute.
    public var relationship: Relationship?
    /// The entity declaring `relationship`.
    public var relationshipOwner: String?
    public var attribute: Attribute
    /// The entity declaring `attribute`.
    public var attributeOwner: String
}

/// Why a derived attribute's expression cannot be maintained.
public struct DerivationProblem: Error, Sendable, Equatable {
    public var message: String
    /// `true` when the expression is valid for Core Data but the store cannot keep it current (the
    /// column exists; its value is not computed): a warning rather than an error.
    public var isUnsupported: Bool
}

extension Model {
    /// The derivation of `attribute` of `entity`, with its names resolved, or why there is none.
    public func derivation(of attribute: Attribute, in entity: Entity) -> Result<Derivation, DerivationProblem> {
        let text = attribute.derivationExpression ?? ""
        func problem(_ message: String, unsupported: Bool = false) -> Result<Derivation, DerivationProblem> {
            .failure(DerivationProblem(message: message, isUnsupported: unsupported))
        }
        guard let expression = DerivationExpression(parsing: text) else {
            return problem(
                "has derivation expression '\(text)', which is none of the supported forms: now(), a key path through "
                    + "a to-one relationship, canonical:(…), lowercase:(…), uppercase:(…), to-many.@count or count:(to-many), to-many.attribute.@sum or sum:(to-many.attribute)")
        }
        switch expression {
        case .now:
            return .success(.now)
        case .text(let function, let keyPath):
            return source(keyPath, from: entity).flatMap { source in
                source.attribute.type == .string
                    ? .success(.text(function, source))
                    : problem("derives \(function.rawValue):(…) from '\(keyPath.joined(separator: "."))', which is not a String")
            }
        case .value(let keyPath):
            return source(keyPath, from: entity).map(Derivation.value)
        case .count(let name):
            return toMany(name, of: entity).map { .count(relationship: $0.relationship, owner: $0.owner) }
        case .sum(let name, let attributeName):
            return toMany(name, of: entity).flatMap { found in
                guard case .attribute(let summed)? = property(named: attributeName, inEntityNamed: found.relationship.destinationEntityName),
                      summed.isPersistent, summed.type.isNumeric,
                      let owner = declaringEntityName(ofProperty: attributeName, inEntityNamed: found.relationship.destinationEntityName)
                else {
                    return problem("sums '\(attributeName)', which is not a stored number of entity '\(found.relationship.destinationEntityName)'")
                }
                return .success(.sum(relationship: found.relationship, owner: found.owner, attribute: summed, attributeOwner: owner))
            }
        }
    }

    /// The attribute `keyPath` names from `entity`: its own, or one through a single to-one relationship.
    private func source(_ keyPath: [String], from entity: Entity) -> Result<DerivationSource, DerivationProblem> {
        let path = keyPath.joined(separator: ".")
        func problem(_ message: String, unsupported: Bool = false) -> Result<DerivationSource, DerivationProblem> {
            .failure(DerivationProblem(message: message, isUnsupported: unsupported))
        }
        guard keyPath.count <= 2 else {
            return problem("derives its value through more than one relationship ('\(path)'); the store keeps only "
                + "values read through at most one to-one relationship current, so this one is never computed", unsupported: true)
        }
        var owner = entity.name
        var relationship: Relationship?, relationshipOwner: String?
        if keyPath.count == 2 {
            guard case .relationship(let found)? = property(named: keyPath[0], inEntityNamed: entity.name), found.isToOne,
                  found.isPersistent, let declaring = declaringEntityName(ofProperty: keyPath[0], inEntityNamed: entity.name)
            else { return problem("derives its value from '\(path)', but '\(keyPath[0])' is not a stored to-one relationship") }
            relationship = found
            relationshipOwner = declaring
            owner = found.destinationEntityName
        }
        guard case .attribute(let attribute)? = property(named: keyPath[keyPath.count - 1], inEntityNamed: owner),
              attribute.isPersistent, attribute.type != .composite,
              let attributeOwner = declaringEntityName(ofProperty: attribute.name, inEntityNamed: owner)
        else { return problem("derives its value from '\(path)', which is not a stored attribute") }
        return .success(DerivationSource(
            relationship: relationship, relationshipOwner: relationshipOwner, attribute: attribute, attributeOwner: attributeOwner))
    }

    private func toMany(_ name: String, of entity: Entity) -> Result<(relationship: Relationship, owner: String), DerivationProblem> {
        guard case .relationship(let relationship)? = property(named: name, inEntityNamed: entity.name),
              relationship.isToMany, relationship.isPersistent,
              let owner = declaringEntityName(ofProperty: name, inEntityNamed: entity.name)
        else {
            return .failure(DerivationProblem(message: "aggregates '\(name)', which is not a stored to-many relationship", isUnsupported: false))
        }
        return .success((relationship, owner))
    }
}
