#!/bin/sh
# Regenerates the performance explorer's screenshots in docs/img/perf2/ (docs/gui-performance.md): every view
# on the GEMM baseline (gemm/small's program, K1) after the what-if walk, at 1366x768 and 1920x1080, rendered
# offscreen by the widget test Perf2Screens. Usage: scripts/perf2-screenshots.sh [build-dir]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/default}
out=$root/docs/img/perf2
mkdir -p "$out"
cd "$root"
flock /tmp/sf-build.lock cmake --build "$build" --target test_widgets -j2
QT_QPA_PLATFORM=offscreen SF_SCREENSHOT_DIR="$out" "$build/tests/widgets/test_widgets" \
  --gtest_filter='Perf2Screens.*'
ls "$out"
