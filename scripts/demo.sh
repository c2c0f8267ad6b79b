#!/usr/bin/env bash
# The main job: installs dependencies, builds StepForge and runs it on the bundled benchmark.
# (Until the campaign engine lands this validates the benchmark: every task, reference solution, mutant and
#  manual example, and prints the verification table.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)"
CLI=./build/default/app/cli/stepforge-cli
"$CLI" tasks list
"$CLI" verify tests/data/solutions/*/*.yaml
"$CLI" tasks validate
