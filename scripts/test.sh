#!/usr/bin/env bash
# Installs dependencies, builds and runs every test: the default build, the whole suite again under
# AddressSanitizer + UndefinedBehaviorSanitizer, the benchmark validation, and a short fuzzing smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="${JOBS:-$(nproc)}"

# Wall time of each stage, printed at the end (docs/performance.md records a clean-clone run).
STAGES=()
stage_start=$SECONDS
stage() {  # stage NAME: closes the running stage under NAME
  STAGES+=("$(printf '%-34s %5d s' "$1" $((SECONDS - stage_start)))")
  stage_start=$SECONDS
}

bash scripts/install-deps.sh
stage "install packages"

echo "== default build"
cmake --preset default
cmake --build --preset default -j "$JOBS"
stage "default build"
ctest --preset default
stage "default tests"

echo "== benchmark validation (tasks, solutions on both bindings, mutants, manual examples)"
./build/default/app/cli/stepforge-cli tasks validate
stage "tasks validate"

echo "== desktop integration and the Debian package"
bash packaging/check-package.sh build/default
stage "package check"

if [ "${STEPFORGE_SKIP_ASAN:-0}" != "1" ]; then
  echo "== ASan + UBSan build (the test executables only)"
  cmake --preset asan
  cmake --build --preset asan -j "$JOBS" --target sf_tests
  stage "ASan + UBSan build"
  ctest --preset asan
  stage "ASan + UBSan tests"
fi

if [ "${STEPFORGE_SKIP_FUZZ:-0}" != "1" ] && command -v clang++ >/dev/null 2>&1; then
  echo "== fuzzing smoke run (every target in build/fuzz/tests/fuzz/fuzzers.txt)"
  cmake --preset fuzz
  cmake --build --preset fuzz -j "$JOBS" --target sf_fuzzers
  mapfile -t fuzzers < build/fuzz/tests/fuzz/fuzzers.txt
  [ "${#fuzzers[@]}" -gt 0 ] || { echo "test.sh: no fuzz targets listed"; exit 1; }
  # FUZZ_SECONDS is the total smoke time, split evenly between the targets (at least 5 s each).
  per=$(( ${FUZZ_SECONDS:-40} / ${#fuzzers[@]} ))
  [ "$per" -ge 5 ] || per=5
  for line in "${fuzzers[@]}"; do
    read -r f seeds <<<"$line"
    mkdir -p "build/fuzz/corpus-$f"
    echo "-- $f (${per} s)"
    "./build/fuzz/tests/fuzz/$f" -max_total_time="$per" -rss_limit_mb=2048 "build/fuzz/corpus-$f" $seeds
  done
  stage "fuzzing (build + smoke run)"
fi
echo "== wall time per stage"
printf '%s\n' "${STAGES[@]}"
printf '%-34s %5d s\n' "total" "$SECONDS"
echo "== all tests passed"
