#!/usr/bin/env bash
# Checks the desktop integration and the Debian package of a GUI build (issue 9, item 6):
#   desktop-file-validate and appstreamcli validate (no network) on packaging/;
#   cpack -G DEB in BUILD_DIR; the package lists the binaries, the .desktop file, the metainfo, the icon and the
#   bundled resources, and depends on the Qt 6 runtime; the packaged stepforge-cli, unpacked into a temporary
#   root, finds its tasks in <root>/usr/share/stepforge/resources (and not in the source tree).
# Usage: packaging/check-package.sh BUILD_DIR   (BUILD_DIR configured with STEPFORGE_BUILD_GUI=ON and built)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:?usage: check-package.sh BUILD_DIR}"
ID=io.github.stepforge.StepForge

desktop-file-validate "packaging/$ID.desktop"
appstreamcli validate --no-net "packaging/$ID.metainfo.xml"

rm -f "$BUILD"/stepforge_*.deb
(cd "$BUILD" && cpack -G DEB >cpack.log 2>&1) || { cat "$BUILD/cpack.log"; exit 1; }
shopt -s nullglob
debs=("$BUILD"/stepforge_*.deb)
[ "${#debs[@]}" -eq 1 ] || { echo "check-package: expected one stepforge_*.deb in $BUILD"; exit 1; }
deb="${debs[0]}"
echo "check-package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"

listing="$(dpkg-deb -c "$deb")"
fail=0
for f in ./usr/bin/stepforge ./usr/bin/stepforge-cli \
         "./usr/share/applications/$ID.desktop" "./usr/share/metainfo/$ID.metainfo.xml" \
         "./usr/share/icons/hicolor/scalable/apps/$ID.svg" \
         ./usr/share/stepforge/resources/benchmark/gemm_easy/batched_matvec.yaml \
         ./usr/share/stepforge/resources/manual/index.md ./usr/share/stepforge/resources/configs/prices.json; do
  if ! grep -qE " ${f//./\\.}\$" <<<"$listing"; then
    echo "check-package: $f is missing from the package"
    fail=1
  fi
done
depends="$(dpkg-deb -f "$deb" Depends)"
echo "check-package: Depends: $depends"
for p in libqt6widgets6 libqt6core6 libyaml-cpp0.7 libcurl4 libmimalloc2.0 libc6; do
  grep -q "\\b$p\\b" <<<"$depends" || { echo "check-package: Depends lacks $p"; fail=1; }
done
[ "$fail" -eq 0 ] || exit 1

# The packaged CLI uses the packaged resources: drop one task from the unpacked tree and it is no longer listed.
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
env -u STEPFORGE_RESOURCES "$root/usr/bin/stepforge-cli" tasks list >"$root/all.txt"
grep -q '^gemm_easy/batched_matvec ' "$root/all.txt" || { echo "check-package: packaged CLI lists no tasks"; exit 1; }
rm "$root/usr/share/stepforge/resources/benchmark/gemm_easy/batched_matvec.yaml"
env -u STEPFORGE_RESOURCES "$root/usr/bin/stepforge-cli" tasks list >"$root/less.txt"
if grep -q '^gemm_easy/batched_matvec ' "$root/less.txt"; then
  echo "check-package: the packaged stepforge-cli does not read <prefix>/share/stepforge/resources"
  exit 1
fi
echo "check-package: ok ($(($(wc -l <"$root/all.txt") - 1)) tasks from the packaged resources)"
