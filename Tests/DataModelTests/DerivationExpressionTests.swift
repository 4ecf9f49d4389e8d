import DataModel
import Testing

/// The derivation expressions of derived attributes, as the model editor writes them.
@Suite struct DerivationExpressionTests {
    @Test(arguments: [
        ("now()", DerivationExpression.now),
        (" now( ) ", .now),
        ("canonical:(title)", .text(.canonical, keyPath: ["title"])),
        ("lowercase:(author.name)", .text(.lowercase, keyPath: ["author", "name"])),
        ("uppercase: (name)", .text(.uppercase, keyPath: ["name"])),
        ("chapters.@count", .count(relationship: "chapters")),
        ("count:(chapters)", .count(relationship: "chapters")),
        ("items.price.@sum", .sum(relationship: "items", attribute: "price")),
        ("todoList.name", .value(keyPath: ["todoList", "name"])),
        ("größe", .value(keyPath: ["größe"])),
    ])
    func supportedForms_parse(_ text: String, _ expected: DerivationExpression) {
        #expect(DerivationExpression(parsing: text) == expected)
    }

    @Test(arguments: [
        "", "now() + 1", "reverse:(title)", "canonical:title", "canonical:(a.)", "@count", "chapters.@avg",
        "items.@sum", "a.b.c.@count", "count:(a.b)", "count:chapters", "a..b", "1st.name", "chapters.@count.name",
    ])
    func otherTexts_doNotParse(_ text: String) {
        #expect(DerivationExpression(parsing: text) == nil)
    }
}
