#!/usr/bin/env bash
# Installs every Debian 12 package StepForge needs to build, test and package.
# Idempotent and non-interactive; run as root (or with sudo available).
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-charts-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6opengl6-dev
  libqscintilla2-qt6-dev libgl-dev
  libeigen3-dev nlohmann-json3-dev libyaml-cpp-dev libcurl4-openssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev libcpp-httplib-dev libssl-dev
  clang libclang-rt-dev
  desktop-file-utils appstream dpkg-dev file qt6-translations-l10n
  ccache libmimalloc-dev valgrind
  slurm-wlm munge
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# Optional: the OS keyring for the GUI's API keys (qtkeychain). Best effort: the build works without it.
OPTIONAL=(qtkeychain-qt6-dev)
install_optional() {
  for p in "${OPTIONAL[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" ||
        echo "install-deps: optional $p not installed (the GUI builds without the OS keyring)"
    fi
  done
}

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages already installed"
  install_optional || true
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_optional || true
