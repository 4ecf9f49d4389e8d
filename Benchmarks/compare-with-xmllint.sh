#!/usr/bin/env bash
# Whole-process comparison on the same file: `datamodel-gen lint` (parse + validate + print) versus
# `xmllint --noout` (parse only). Needs hyperfine and xmllint (Debian: hyperfine, libxml2-utils).
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product make-synthetic-model
swift build -c release --package-path .. --product datamodel-gen
model=$(.build/release/make-synthetic-model .build/Synthetic.xcdatamodel 1000)
hyperfine --warmup 3 --ignore-failure \
    "xmllint --noout '$model'" \
    "../.build/release/datamodel-gen lint '$model'"
