import Foundation

extension ModelDiagram {
    /// A Graphviz graph: a table per entity (its name, then its attributes), an empty-headed arrow
    /// from subentity to parent (UML's generalization), and an edge per relationship whose ends show the cardinality as
    /// Xcode drew it — one arrowhead for to-one, two for to-many — and as UML's multiplicity.
    static func dot(of model: Model) -> String {
        var lines = [
            "digraph \(quoted(model.versionName ?? "Model")) {",
            "    graph [rankdir=LR, fontname=\"Helvetica\", nodesep=0.4, ranksep=0.9];",
            "    node [shape=plain, fontname=\"Helvetica\", fontsize=11];",
            "    edge [fontname=\"Helvetica\", fontsize=9, labeldistance=1.8];",
        ]
        for entity in model.entities {
            let name = entity.isAbstract ? "<i>\(escaped(entity.name))</i>" : "<b>\(escaped(entity.name))</b>"
            var rows = ["<tr><td bgcolor=\"#dde4ee\">\(name)</td></tr>"]
            rows += entity.attributes.map { "<tr><td align=\"left\">\(escaped(line(for: $0)))</td></tr>" }
            let table = "<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">\(rows.joined())</table>"
            lines.append("    \(quoted(entity.name)) [label=<\(table)>];")
        }
        for entity in model.entities {
            if let parent = entity.parentName {
                lines.append("    \(quoted(entity.name)) -> \(quoted(parent)) [arrowhead=empty];")
            }
        }
        for link in links(of: model) {
            var attributes = [
                "label=\(quoted(link.label))",
                "headlabel=\(quoted(multiplicity(of: link.relationship)))",
                "arrowhead=\(arrow(for: link.relationship))",
            ]
            if let inverse = link.inverse {
                attributes += ["dir=both", "taillabel=\(quoted(multiplicity(of: inverse)))", "arrowtail=\(arrow(for: inverse))"]
            }
            lines.append("    \(quoted(link.entity.name)) -> \(quoted(link.relationship.destinationEntityName)) [\(attributes.joined(separator: ", "))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Xcode's arrowheads: one for a to-one relationship, two for a to-many.
    private static func arrow(for relationship: Relationship) -> String {
        relationship.isToMany ? "normalnormal" : "normal"
    }

    /// A DOT string literal.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Text inside an HTML-like label.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
