#!/bin/sh
# Regenerates the performance explorer's screenshots in docs/img/perf2/ (docs/gui-performance.md): the main
# window on the GEMM task (`--task gemm/small`: the task with its baseline program) with each view raised and
# filled (editor, cost, roofline, timeline, whatif, diff, pareto), at 1366x768 and 1920x1080, in the default
# font and in the presentation font, rendered offscreen by `stepforge --screenshot`.
# Usage: scripts/perf2-screenshots.sh [build-dir]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/default}
out=$root/docs/img/perf2
gui=$build/app/gui/stepforge
mkdir -p "$out"
cd "$root"
flock /tmp/sf-build.lock cmake --build "$build" --target stepforge -j2
export QT_QPA_PLATFORM=offscreen
for size in 1366x768 1920x1080; do
  for font in default presentation; do
    for pane in editor cost roofline timeline whatif diff pareto; do
      suffix=""
      flag=""
      if [ "$font" = presentation ]; then suffix="_presentation"; flag="--presentation-font"; fi
      file="$out/perf2_${pane}_${size}${suffix}.png"
      # shellcheck disable=SC2086
      "$gui" --screenshot "$file" --task gemm/small --size "$size" --pane "$pane" --palette $flag 2>&1 \
        | grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR\|does not support raise' >&2 || true
      [ -s "$file" ] || { echo "perf2-screenshots: $file was not written" >&2; exit 1; }
      echo "wrote $file"
    done
  done
done
