/// A picture of a model, as Xcode's graph view drew it before Xcode 14 removed it: entities with
/// their attributes, relationships with their cardinality and inverses, and inheritance. Written as
/// Mermaid (`classDiagram`, which GitHub renders in Markdown) or Graphviz DOT.
///
///     let text = ModelDiagram.text(of: model, format: .mermaid)
public enum ModelDiagram {
    public enum Format: String, CaseIterable, Sendable {
        case mermaid
        case dot
    }

    /// The diagram of `model` in `format`.
    public static func text(of model: Model, format: Format) -> String {
        switch format {
        case .mermaid: mermaid(of: model)
        case .dot: dot(of: model)
        }
    }

    /// A relationship and its inverse, drawn as one line: from the entity that declares
    /// `relationship`, the first of the two in the model's order, to its destination.
    struct Link {
        var entity: Entity
        var relationship: Relationship
        /// The destination's relationship back, when the model names one that exists.
        var inverse: Relationship?

        /// The line's label: the relationship's name, and its inverse's after a slash.
        var label: String {
            ([relationship] + (inverse.map { [$0] } ?? [])).map { $0.name + ($0.isOrdered ? " (ordered)" : "") }.joined(separator: " / ")
        }
    }

    /// Every relationship of the model once: a pair of inverses gives one link.
    static func links(of model: Model) -> [Link] {
        var drawn: Set<String> = []
        var links: [Link] = []
        for entity in model.entities {
            for relationship in entity.relationships where !drawn.contains("\(entity.name).\(relationship.name)") {
                let inverseEntity = relationship.inverseEntityName ?? relationship.destinationEntityName
                let inverse = relationship.inverseName.flatMap { name in
                    model.entity(named: inverseEntity)?.relationships.first { $0.name == name }
                }
                if let inverse { drawn.insert("\(inverseEntity).\(inverse.name)") }
                drawn.insert("\(entity.name).\(relationship.name)")
                links.append(Link(entity: entity, relationship: relationship, inverse: inverse))
            }
        }
        return links
    }

    /// How many destinations a relationship has, in UML's notation: `0..1`, `1`, `*`, `1..*`, `2..5`.
    static func multiplicity(of relationship: Relationship) -> String {
        if relationship.isToOne { return relationship.isOptional ? "0..1" : "1" }
        let minimum = relationship.isOptional ? 0 : max(relationship.minCount ?? 0, 1)
        let maximum = relationship.maxCount.flatMap { $0 > 0 ? String($0) : nil } ?? "*"
        if minimum == 0, maximum == "*" { return "*" }
        return "\(minimum)..\(maximum)"
    }

    /// An attribute as a line of its entity's box: `title: String?`, with what sets it apart.
    static func line(for attribute: Attribute) -> String {
        var flags: [String] = []
        if attribute.isTransient { flags.append("transient") }
        if attribute.isDerived { flags.append("derived") }
        let suffix = flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"
        return "\(attribute.name): \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")\(suffix)"
    }
}
