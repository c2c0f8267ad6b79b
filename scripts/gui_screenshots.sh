#!/usr/bin/env bash
# Regenerates the workbench pictures of the docs at 1920x1080 (issue 34): docs/screenshot.png (the README's)
# and docs/img/pane-NAME.png (docs/gui-panes.md), offscreen, from a demo campaign workspace.
#   bash scripts/gui_screenshots.sh [WORKSPACE] [SIZE]
# WORKSPACE defaults to build/demo-campaign (made by scripts/demo.sh; or
# `stepforge-cli campaign run resources/configs/demo.json --out DIR`); SIZE defaults to 1920x1080.
# The pane names are `stepforge --help`'s (--pane); a name this build does not know is reported and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
WS="${1:-build/demo-campaign}"
SIZE="${2:-1920x1080}"
GUI="${STEPFORGE:-build/default/app/gui/stepforge}"
[ -x "$GUI" ] || { echo "gui_screenshots: no $GUI (cmake --build build/default --target stepforge)" >&2; exit 2; }
[ -f "$WS/events.jsonl" ] || { echo "gui_screenshots: $WS is not a campaign workspace" >&2; exit 2; }
export QT_QPA_PLATFORM=offscreen
mkdir -p docs/img
shot() {  # OUT [--pane NAME]
  local out="$1"; shift
  if "$GUI" --screenshot "$out" --campaign "$WS" --size "$SIZE" "$@" 2> >(grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR' >&2); then
    echo "wrote $out"
  else
    echo "gui_screenshots: $out failed" >&2
    return 1
  fi
}
shot docs/screenshot.png
known="$("$GUI" --help 2>/dev/null | tr -d '\n' | sed -n 's/.*one of: \([^.]*\)\..*/\1/p' | tr -d ' ')"
for pane in tasks verification streams traces curves comparison graph editor performance; do
  case ",$known," in
    *",$pane,"*) shot "docs/img/pane-$pane.png" --pane "$pane" ;;
    *) echo "gui_screenshots: this build has no pane '$pane', skipped" >&2 ;;
  esac
done
