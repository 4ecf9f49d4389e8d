import Foundation

/// Attribute rules: types, defaults, limits, composites.
extension ModelValidator {
    func checkAttribute(_ attribute: Attribute, of entity: Entity, in model: Model, _ findings: inout Findings) {
        let entityName = entity.name  // closures capture the name, not a copy of the whole entity
        func what() -> String { "attribute '\(attribute.name)' of entity '\(entityName)'" }
        if !attribute.isOptional && attribute.isPersistent && !attribute.isDerived && !attribute.hasDefaultValue
            && attribute.type != .composite
        {
            findings.warning(
                "\(what()) is required but has no default value; saving an object that never set it fails validation",
                at: attribute.location)
        }
        checkAttributeValues(attribute, owner: "entity '\(entityName)'", in: model, &findings)
        if attribute.isDerived, attribute.isPersistent, !(attribute.derivationExpression ?? "").isEmpty,
           case .failure(let problem) = model.derivation(of: attribute, in: entity)
        {
            if problem.isUnsupported {
                findings.warning("\(what()) \(problem.message)", at: attribute.location)
            } else {
                findings.error("\(what()) \(problem.message)", at: attribute.location)
            }
        }
    }

    /// The rules shared by entity and composite attributes.
    func checkAttributeValues(_ attribute: Attribute, owner: @autoclosure () -> String, in model: Model, _ findings: inout Findings) {
        func what() -> String { "attribute '\(attribute.name)' of \(owner())" }
        let location = attribute.location
        let typeWasUnreadable = attribute.unknownXML?.attributes.contains { $0.name == "attributeType" } ?? false
        if attribute.type == .undefined && attribute.isPersistent && !typeWasUnreadable {
            findings.error("\(what()) has no type; only transient attributes may be Undefined", at: location)
        }
        if attribute.isDerived && (attribute.derivationExpression ?? "").isEmpty {
            findings.error("\(what()) is derived but has no derivation expression", at: location)
        }
        if attribute.type == .composite {
            if let name = attribute.compositeName {
                if model.composite(named: name) == nil {
                    findings.error("\(what()) uses unknown composite '\(name)'", at: location)
                }
            } else {
                findings.error("\(what()) is Composite but names no composite", at: location)
            }
        }
        if let text = attribute.defaultValue, !Self.isValidDefault(text, for: attribute.type) {
            let message = "\(what()) has default value '\(text)', which is not a valid \(attribute.type.rawValue)"
            if attribute.type.isNumeric || attribute.type == .boolean {
                // Xcode accepts these and Core Data reads the leading number (else 0): keep the model usable.
                findings.warning("\(message); it is read leniently, as Core Data does (the leading number, else 0)", at: location)
            } else {
                // Xcode compiles these too; no value of the type can be made from the text, so the
                // attribute has no default, as in Core Data.
                findings.warning("\(message); the attribute has no default value, as in Core Data", at: location)
            }
        }
        if attribute.defaultData != nil, attribute.type != .binary, attribute.type != .transformable {
            findings.error("\(what()) has a default of bytes, which only Binary and Transformable attributes hold", at: location)
        }
        checkLimits(of: attribute, what: what, &findings)
    }

    private func checkLimits(of attribute: Attribute, what: () -> String, _ findings: inout Findings) {
        let location = attribute.location
        let limitsAreLengths = attribute.type == .string || attribute.type == .binary
        func parse(_ text: String?, _ label: String) -> Double? {
            guard let text else { return nil }
            guard let value = Double(text.trimmingSpaces),
                  !limitsAreLengths || (value >= 0 && value == value.rounded())
            else {
                let expected = limitsAreLengths ? "a length (a whole number ≥ 0)" : "a number"
                findings.error("\(what()) has \(label) '\(text)', which is not \(expected)", at: location)
                return nil
            }
            return value
        }
        if attribute.minValue != nil || attribute.maxValue != nil,
           !(attribute.type.isNumeric || limitsAreLengths)
        {
            // Old Xcode wrote these for Dates too; Core Data ignores them, so do we, loudly.
            findings.warning(
                "\(what()) has minValueString/maxValueString, which \(attribute.type.rawValue) attributes ignore\(attribute.type == .date ? " (dates use minDateTimeInterval/maxDateTimeInterval)" : "")",
                at: location)
            return
        }
        if let min = parse(attribute.minValue, "minimum"), let max = parse(attribute.maxValue, "maximum"), min > max {
            findings.error("\(what()) has minimum \(attribute.minValue!) greater than maximum \(attribute.maxValue!)", at: location)
        }
        if let min = attribute.minDateTimeInterval, let max = attribute.maxDateTimeInterval, min > max {
            findings.error("\(what()) has a minimum date later than its maximum date", at: location)
        }
        if attribute.regularExpression != nil && attribute.type != .string {
            findings.warning("\(what()) has a regular expression, which only applies to String attributes", at: location)
        }
    }

    /// Whether `text` reads as a default value of `type` the way Core Data's model compiler reads it.
    static func isValidDefault(_ text: String, for type: AttributeType) -> Bool {
        let trimmed = text.trimmingSpaces
        switch type {
        case .integer16: return Int16(trimmed) != nil
        case .integer32: return Int32(trimmed) != nil
        case .integer64: return Int64(trimmed) != nil
        case .double, .float, .decimal: return Double(trimmed) != nil
        case .boolean: return ["YES", "NO", "TRUE", "FALSE", "1", "0"].contains(trimmed.uppercased())
        case .uuid: return UUID(uuidString: String(trimmed)) != nil
        case .uri: return URL(string: String(trimmed)) != nil
        // Dates carry their default in `defaultDateTimeInterval`; the string is a display form.
        case .string, .date, .binary, .transformable, .objectID, .composite, .undefined: return true
        }
    }
}
