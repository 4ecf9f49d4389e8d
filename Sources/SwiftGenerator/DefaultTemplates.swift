// The default templates of `Templates/`, written by Scripts/embed-templates.sh. Do not edit:
// edit Templates/*.mustache and run the script (a test fails while the two differ).

extension TemplateSet {
    /// Every default template by name (its file name without `.mustache`).
    static let defaults: [String: String] = [
        "entity": #"""
{{% CONTENT_TYPE: TEXT }}
{{#entity}}
{{#documentation}}
/// {{.}}
{{/documentation}}
{{access}}{{finalKeyword}}class {{className}}: {{superclassName}} {
    {{access}}override class var entityName: String { "{{entityName}}" }
{{$keys}}
{{#attributes}}
{{#first()}}

{{/first()}}
    /// The key of `{{name}}` for typed predicates and sort descriptors.
    {{access}}static let {{identifier}} = {{keyType}}("{{name}}", slot: {{slot}})
{{/attributes}}
{{#relationships}}
{{#first()}}

{{/first()}}
    /// The key of `{{name}}` for typed predicates and sort descriptors.
    {{access}}static let {{identifier}} = {{keyType}}("{{name}}", slot: {{slot}})
{{/relationships}}
{{/keys}}
{{$properties}}
{{#attributes}}

{{#documentation}}
    /// {{.}}
{{/documentation}}
{{#isReadOnly}}
    {{access}}var {{identifier}}: {{swiftType}} { {{#direct}}valuesAreInProperties ? {{read}} : {{/direct}}self[{{className}}.{{identifier}}] }
{{/isReadOnly}}
{{^isReadOnly}}
{{#direct}}
    {{access}}var {{identifier}}: {{swiftType}} {
        get { valuesAreInProperties ? {{read}} : self[{{className}}.{{identifier}}] }
        set {
            guard canSetPropertyValue(atSlot: {{slot}}) else { self[{{className}}.{{identifier}}] = newValue; return }
{{#conversion}}
            let stored = {{.}}
{{/conversion}}
            if {{storageName}} != {{written}} {
                willSetPropertyValue()
                {{storageName}} = {{written}}
                didSetPropertyValue()
            }
        }
    }
{{/direct}}
{{^direct}}
    {{access}}var {{identifier}}: {{swiftType}} {
        get { self[{{className}}.{{identifier}}] }
        set { self[{{className}}.{{identifier}}] = newValue }
    }
{{/direct}}
{{/isReadOnly}}
{{/attributes}}
{{#relationships}}

{{#documentation}}
    /// {{.}}
{{/documentation}}
    {{access}}var {{identifier}}: {{swiftType}} {
        get { self[{{subscriptLabel}}{{className}}.{{identifier}}] }
        set { self[{{subscriptLabel}}{{className}}.{{identifier}}] = newValue }
    }
{{/relationships}}
{{/properties}}
{{$mutators}}
{{#toManyRelationships}}

    /// Adds `{{parameterName}}` to `{{name}}`{{#isOrdered}} at the end{{/isOrdered}}, and `self` to its inverse.
    {{access}}func addTo{{capitalizedIdentifier}}(_ {{parameterName}}: {{destinationClassName}}) {
        add({{parameterName}}, to: {{className}}.{{identifier}})
    }
{{#isOrdered}}

    /// Inserts `{{parameterName}}` into `{{name}}` at `index`, and `self` into its inverse.
    {{access}}func insertInto{{capitalizedIdentifier}}(_ {{parameterName}}: {{destinationClassName}}, at index: Int) {
        insert({{parameterName}}, at: index, into: {{className}}.{{identifier}})
    }
{{/isOrdered}}

    /// Removes `{{parameterName}}` from `{{name}}`, and `self` from its inverse.
    {{access}}func removeFrom{{capitalizedIdentifier}}(_ {{parameterName}}: {{destinationClassName}}) {
        remove({{parameterName}}, from: {{className}}.{{identifier}})
    }
{{/toManyRelationships}}
{{/mutators}}
{{$fetchedProperties}}
{{#fetchedProperties}}

{{#documentation}}
    /// {{.}}
{{/documentation}}
    {{access}}var {{identifier}}: FetchRequest<{{destinationClassName}}> {
        let predicate: ObjectPredicate = {{predicateExpression}}
        return FetchRequest(predicate: predicate.withSubstitutionVariables(["FETCH_SOURCE": self]))
    }
{{/fetchedProperties}}
{{/fetchedProperties}}
{{$storage}}
{{#hasStoredAttributes}}

    // The attribute values, in stored properties the runtime reads rows into and reaches by slot.
{{#storedAttributes}}
    @exclusivity(unchecked) private var {{storageName}}: {{storageType}}
{{/storedAttributes}}

    {{access}}override class var propertyStoredAttributes: [String] {
        super.propertyStoredAttributes + [
{{#storedAttributes}}
            "{{name}}",
{{/storedAttributes}}
        ]
    }

    {{access}}override func readAttributes(from row: inout StoreRow) {
        super.readAttributes(from: &row)
{{#storedAttributes}}
        {{storageName}} = row.{{rowRead}}({{slot}})
{{/storedAttributes}}
    }

    {{access}}override func storedAttributeValue(atSlot slot: Int) -> AttributeValue {
        switch slot {
{{#storedAttributes}}
        case {{slot}}: AttributeValue(stored: {{storageName}})
{{/storedAttributes}}
        default: super.storedAttributeValue(atSlot: slot)
        }
    }

    {{access}}override func storeAttributeValue(_ value: AttributeValue, atSlot slot: Int) -> Bool {
        switch slot {
{{#storedAttributes}}
        case {{slot}}: value.store(in: &{{storageName}})
{{/storedAttributes}}
        default: super.storeAttributeValue(value, atSlot: slot)
        }
    }
{{/hasStoredAttributes}}
{{/storage}}
{{$extraMembers}}
{{/extraMembers}}
}
{{$nameConstants}}

extension {{className}} {
{{#hasAttributeNames}}
    /// The names of the attributes of `{{entityName}}`, inherited ones included.
    {{access}}enum Attributes {
{{#attributeNames}}
        {{access}}static let {{identifier}} = "{{name}}"
{{/attributeNames}}
    }
{{/hasAttributeNames}}
{{#hasRelationshipNames}}
{{#hasAttributeNames}}

{{/hasAttributeNames}}
    /// The names of the relationships of `{{entityName}}`, inherited ones included.
    {{access}}enum Relationships {
{{#relationshipNames}}
        {{access}}static let {{identifier}} = "{{name}}"
{{/relationshipNames}}
    }
{{/hasRelationshipNames}}
{{#hasFetchedPropertyNames}}

    /// The names of the fetched properties of `{{entityName}}`, inherited ones included.
    {{access}}enum FetchedProperties {
{{#fetchedPropertyNames}}
        {{access}}static let {{identifier}} = "{{name}}"
{{/fetchedPropertyNames}}
    }
{{/hasFetchedPropertyNames}}
}
{{/nameConstants}}
{{/entity}}

"""#,
        "header": #"""
{{% CONTENT_TYPE: TEXT }}
// Generated by datamodel-gen from {{sourceFileName}}. Do not edit: change the model or the templates.
{{#imports}}
import {{.}}
{{/imports}}

"""#,
        "model": #"""
{{% CONTENT_TYPE: TEXT }}
/// The `{{modelName}}` model: its definition for the runtime and typed builders for its fetch requests.
{{access}}enum {{typeName}} {
    /// The model with a class for every entity. Open stores with it:
    /// `PersistentStore(url: url, model: {{typeName}}.model)`.
    {{access}}static let model = ManagedObjectModel(
        model: definition,
        classes: [
{{#entities}}
            {{className}}.self,
{{/entities}}
        ]{{#versions}},{{/versions}}
{{#versions}}
        versions: {{propertyName}}
{{/versions}}
    )

    /// The model exactly as `{{sourceFileName}}` defines it, compiled into Swift values.
{{#versions}}
    /// This is its current version, `{{currentName}}`; `{{propertyName}}` holds every version.
{{/versions}}
    {{access}}static let definition = {{definition}}
{{#versions}}

    /// Every version of `{{sourceFileName}}`, oldest first, `definition` among them: the models a
    /// store may have been written with, which opening it with `model` migrates from.
    {{access}}static let {{propertyName}}: [DataModel.Model] = {{list}}

    /// The versions of `{{sourceFileName}}` other than the current one, compiled into Swift values.
    {{access}}enum {{enumName}} {
{{#others}}
{{^first()}}

{{/first()}}
        /// Version `{{name}}`: the model exactly as `{{fileName}}` defines it.
        {{access}}static let {{identifier}} = {{definition}}
{{/others}}
    }
{{/versions}}
{{#hasFetchRequests}}

    /// Typed builders for the model's fetch request templates: each returns a request to adjust and fetch.
    {{access}}enum FetchRequests {
{{#fetchRequests}}
{{^first()}}

{{/first()}}
{{#documentation}}
        /// {{.}}
{{/documentation}}
        {{access}}static func {{identifier}}({{#parameters}}{{identifier}}: {{swiftType}}{{^last()}}, {{/last()}}{{/parameters}}) -> FetchRequest<{{resultClassName}}> {
{{^predicateExpression}}
{{#empty(settings)}}
            FetchRequest<{{resultClassName}}>()
{{/empty(settings)}}
{{^empty(settings)}}
            var request = FetchRequest<{{resultClassName}}>()
{{#settings}}
            {{.}}
{{/settings}}
            return request
{{/empty(settings)}}
{{/predicateExpression}}
{{#predicateExpression}}
            var request = FetchRequest<{{resultClassName}}>()
            request.predicate = {{.}}
{{#settings}}
            {{.}}
{{/settings}}
            return request
{{/predicateExpression}}
        }
{{/fetchRequests}}
    }
{{/hasFetchRequests}}
}
{{#composites}}

{{#documentation}}
/// {{.}}
{{/documentation}}
{{access}}struct {{typeName}}: CompositeAttribute {
{{#members}}
{{#documentation}}
    /// {{.}}
{{/documentation}}
    {{access}}var {{identifier}}: {{swiftType}}
{{/members}}

    /// A `{{typeName}}` from its members; those not given are `nil` or the model's defaults.
    {{access}}init({{#members}}{{identifier}}: {{swiftType}}{{#defaultLiteral}} = {{.}}{{/defaultLiteral}}{{^last()}}, {{/last()}}{{/members}}) {
{{#members}}
        self.{{identifier}} = {{identifier}}
{{/members}}
    }

    /// A `{{typeName}}` from its members' stored values.
    {{access}}init(members: CompositeMembers) {
{{#members}}
        {{identifier}} = members["{{name}}"]
{{/members}}
    }

    /// The members' values, by their names in the model.
    {{access}}var members: CompositeMembers {
{{#empty(members)}}
        CompositeMembers()
{{/empty(members)}}
{{^empty(members)}}
        var members = CompositeMembers()
{{#members}}
        members["{{name}}"] = {{identifier}}
{{/members}}
        return members
{{/empty(members)}}
    }

    /// The model's name of each member, for the keys of members in typed predicates and sort descriptors.
    {{access}}static var memberNames: [PartialKeyPath<{{typeName}}>: String] {
        [{{#members}}\.{{identifier}}: "{{name}}"{{^last()}}, {{/last()}}{{/members}}{{#empty(members)}}:{{/empty(members)}}]
    }
}
{{/composites}}

"""#,
    ]
}
