"""Helpers for scripts that build generated code in a package of their own."""
import json
import os


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


def write_package(directory, name, root, modules, extra_targets=""):
    """Writes the manifest of a package named `name` in `directory` with a target per generated
    module, each depending on DataStore of the DataModelKit package at `root`, and `extra_targets`
    (manifest text) after them."""
    targets = "".join(f'        .target(name: "{m}", dependencies: [.product(name: "DataStore", package: "DataModelKit")]),\n'
                      for m in modules)
    with open(os.path.join(directory, "Package.swift"), "w") as file:
        file.write(f"""// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "{name}",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "DataModelKit", path: {json.dumps(root)})],
    targets: [
{targets}{extra_targets}    ],
    swiftLanguageModes: [.v6]
)
""")
