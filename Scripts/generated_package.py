"""Helpers for scripts that build generated code in a package of their own."""


def app_type_stub(user_type):
    """A declaration of a type a model names in userInfo, as an app would write it: Codable for a
    transformable attribute, AttributeStorable otherwise."""
    name = user_type["name"]
    if user_type["isTransformable"]:
        return f"public struct {name}: Codable, Sendable {{}}\n"
    return (f"public struct {name}: AttributeStorable, Sendable {{\n"
            f"    public static var unsetValue: {name} {{ {name}() }}\n"
            f"    public init() {{}}\n"
            f"    public init?(attributeValue: AttributeValue) {{ self.init() }}\n"
            f"    public var attributeValue: AttributeValue {{ .null }}\n}}\n")


def write_app_types(path, user_types):
    """Writes the stubs of `user_types` into `path`, if there are any."""
    if not user_types:
        return
    with open(path, "w") as file:
        file.write("// The types the model names in userInfo, declared as the app would.\nimport DataStore\n\n")
        file.write("\n".join(app_type_stub(t) for t in user_types))
