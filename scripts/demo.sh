#!/usr/bin/env bash
# The main job: installs dependencies, builds stepforge-cli and the workbench (stepforge), runs the demo
# campaign (adaptive self-improvement on the built-in offline synthesizer, no network) and prints its report,
# then runs a STeP-25 optimisation campaign (one seed of resources/configs/optimise-sage.json, a few seconds)
# and prints its report, and ends with the one command that opens the demo campaign in the workbench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)" --target stepforge-cli stepforge
OUT=build/demo-campaign
rm -rf "$OUT"
./build/default/app/cli/stepforge-cli campaign run resources/configs/demo.json --out "$OUT"
./build/default/app/cli/stepforge-cli campaign report "$OUT"
echo
echo "STeP-25: an offline optimisation campaign on the v2 benchmark (fallible built-in optimiser, sage memory;"
echo "per task: baseline -> best cycles, speedup, % of peak, the round of the best and the moves that won):"
OPT=build/demo-optimise
rm -rf "$OPT"
./build/default/app/cli/stepforge-cli campaign run resources/configs/optimise-sage.json --out "$OPT" >/dev/null
./build/default/app/cli/stepforge-cli campaign report "$OPT"
echo
echo "Open the demo campaign in the workbench:"
echo "  $(pwd)/build/default/app/gui/stepforge --campaign $(pwd)/$OUT"
