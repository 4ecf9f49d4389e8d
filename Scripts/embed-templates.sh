#!/usr/bin/env bash
# Embeds Templates/*.mustache into the generator as Swift string literals, so datamodel-gen carries
# its default templates in its binary. Run after editing a template.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -q template-embedder Sources/SwiftGenerator/DefaultTemplates.swift Templates/*.mustache
