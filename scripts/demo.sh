#!/usr/bin/env bash
# The main job: installs dependencies, builds stepforge-cli and runs the demo campaign (adaptive
# self-improvement on the built-in offline synthesizer, no network), printing the per-iteration table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)" --target stepforge-cli
OUT=build/demo-campaign
rm -rf "$OUT"
./build/default/app/cli/stepforge-cli campaign run resources/configs/demo.json --out "$OUT"
./build/default/app/cli/stepforge-cli campaign report "$OUT"
