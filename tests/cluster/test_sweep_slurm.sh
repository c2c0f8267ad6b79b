#!/usr/bin/env bash
# Campaign sweeps on a real single-node Slurm (issue 35 item 7). Usage: test_sweep_slurm.sh STEPFORGE_CLI
# Starts munged, slurmctld and slurmd in a temp folder as the current user (slurm_cluster.sh), then:
#   1. a local 2-seed × 2-variant sweep of a small built-in config (the reference report);
#   2. the same sweep submitted with --scheduler slurm (a %1-throttled job array);
#   3. scancel of a running cell once it has samples, `sweep status` says cancelled, `sweep wait` exits 1;
#   4. `sweep resubmit` submits that cell only, `sweep wait` exits 0, every cell is finished;
#   5. `sweep-report --json` is byte-identical to the local sweep's;
#   6. the API key in the environment appears in no file of the sweep folder;
#   7. the errors: no sbatch on PATH, sbatch refusing the script (an unknown partition).
# Fails (never skips) when Slurm is missing: scripts/install-deps.sh installs slurm-wlm and munge.
set -uo pipefail

CLI=${1:?usage: test_sweep_slurm.sh STEPFORGE_CLI}
CLI=$(readlink -f "$CLI")
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=slurm_cluster.sh
source "$HERE/slurm_cluster.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/sf-cluster.XXXXXX")
cleanup() {
  cluster_stop
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T0=$(date +%s)
fail() {
  echo "FAIL: $*" >&2
  for f in "$TMP"/slurm/slurm/logs/*.out; do
    [ -f "$f" ] && { echo "---- $f" >&2; tail -n 15 "$f" >&2; }
  done
  cluster_logs >&2
  exit 1
}
step() { echo "[$(($(date +%s) - T0)) s] $*"; }

step "starting the cluster in $TMP/cluster"
cluster_start "$TMP/cluster" || fail "the single-node Slurm cluster did not start"
sinfo

cat >"$TMP/tiny.json" <<'JSON'
{"version": 1, "name": "cluster-test", "mode": "agent",
 "backend": {"kind": "builtin", "model": "builtin", "builtin_provider": "synth"},
 "n": 2, "temperature0": 0.5, "tasks": ["rope", "bmm"], "order": "given", "seed": 42,
 "in_flight": 1, "verify_threads": 1, "max_tokens": 2048}
JSON
SWEEP=(campaign sweep "$TMP/tiny.json" --seeds 1-2 --vary n=2,3)
export SF_CLUSTER_TEST_API_KEY="sk-sfcluster-$RANDOM$RANDOM-not-a-real-key"
export OPENAI_API_KEY=$SF_CLUSTER_TEST_API_KEY

step "local sweep"
"$CLI" "${SWEEP[@]}" --out "$TMP/local" >"$TMP/local.log" 2>&1 || { cat "$TMP/local.log"; fail "the local sweep failed"; }
"$CLI" campaign sweep-report "$TMP/local" --json >"$TMP/local-report.json" || fail "sweep-report of the local sweep"

step "submitting to Slurm"
D=$TMP/slurm
"$CLI" "${SWEEP[@]}" --out "$D" --scheduler slurm --max-parallel 1 --sbatch-arg=--time=10 >"$TMP/submit.log" 2>&1 ||
  { cat "$TMP/submit.log"; fail "submitting the sweep failed"; }
cat "$TMP/submit.log"
grep -q '^submitted job [0-9]*: array 0-3%1 (4 cells)' "$TMP/submit.log" || fail "unexpected submit output"
grep -q '^#SBATCH --array=0-3%1$' "$D/slurm/sweep.sbatch" || fail "sweep.sbatch has no throttled array line"
grep -q '^#SBATCH --time=10$' "$D/slurm/sweep.sbatch" || fail "sweep.sbatch lacks the --sbatch-arg"
grep -q '"cells"' "$D/slurm/jobs.json" || fail "jobs.json does not record the cells"

step "waiting for a cell to run with samples logged, then scancel it"
# One look at the status table: "cell state samples job" of the running cell, if any.
running_cell() { "$CLI" campaign sweep status "$D" 2>/dev/null | awk '$4 == "running" && $5 >= 1 && $6 ~ /_/ { print $1, $6; exit }'; }
state_of() { "$CLI" campaign sweep status "$D" 2>/dev/null | awk -v c="$1" '$1 == c { print $4 }'; }
# A cell can finish between the look and the scancel (cells take seconds): then the next running one is taken.
CELL="" CANCELLED=""
for attempt in 1 2 3 4; do
  VICTIM=""
  for _ in $(seq 1 600); do
    read -r CELL VICTIM <<<"$(running_cell)"
    [ -n "$VICTIM" ] && break
    sleep 0.1
  done
  [ -n "$VICTIM" ] || break
  scancel "$VICTIM" || echo "scancel $VICTIM failed (finished meanwhile?)"
  step "scancel cell $CELL ($VICTIM)"
  st=""
  for _ in $(seq 1 300); do
    st=$(state_of "$CELL")
    [ "$st" = cancelled ] || [ "$st" = finished ] && break
    sleep 0.2
  done
  if [ "$st" = cancelled ]; then CANCELLED=$CELL; break; fi
  step "cell $CELL ended '$st' before the cancel reached it; taking the next running cell (try $attempt)"
done
[ -n "$CANCELLED" ] || fail "no running cell with samples logged could be cancelled"
"$CLI" campaign sweep status "$D"
[ "$(state_of "$CELL")" = cancelled ] || fail "cell $CELL is not reported cancelled after scancel"
"$CLI" campaign sweep status "$D" --json | grep -q '"state": "cancelled"' || fail "status --json lacks the cancelled cell"

"$CLI" campaign sweep wait "$D" --timeout 120 --interval 0.5
rc=$?
[ $rc -eq 1 ] || fail "sweep wait with a cancelled cell exited $rc, not 1"
for c in 0 1 2 3; do
  [ "$c" = "$CELL" ] || [ "$(state_of $c)" = finished ] || fail "cell $c is not finished"
done

step "resubmitting"
"$CLI" campaign sweep resubmit "$D" >"$TMP/resubmit.log" 2>&1 || { cat "$TMP/resubmit.log"; fail "resubmit failed"; }
cat "$TMP/resubmit.log"
grep -q "^submitted job [0-9]*: array $CELL%1 (1 cells)" "$TMP/resubmit.log" || fail "resubmit did not submit cell $CELL alone"
"$CLI" campaign sweep wait "$D" --timeout 120 --interval 0.5 || fail "sweep wait after resubmit did not end with every cell finished"
"$CLI" campaign sweep status "$D" --json >"$TMP/status.json"
[ "$(grep -c '"state": "finished"' "$TMP/status.json")" = 4 ] || fail "not 4 finished cells in status --json"
grep -q '"job_id": null' "$TMP/status.json" && fail "a submitted cell has no job id"
[ "$(grep -c 'attempt 1 of 3' "$D/slurm/logs/cell-$CELL.out")" = 2 ] ||
  fail "cell $CELL: the cancelled run counted as a failed attempt (or it did not run twice)"

step "comparing sweep-report --json with the local sweep's"
"$CLI" campaign sweep-report "$D" --json >"$TMP/slurm-report.json" || fail "sweep-report of the Slurm sweep"
cmp "$TMP/local-report.json" "$TMP/slurm-report.json" ||
  { diff "$TMP/local-report.json" "$TMP/slurm-report.json" | head -40; fail "sweep-report --json differs from the local sweep's"; }
grep -rqF "$SF_CLUSTER_TEST_API_KEY" "$D" && fail "the API key was written under the sweep folder"

step "errors"
# A cell that failed --max-attempts times is not run again: sweep-cell refuses and records why.
printf '{"attempts": 3, "state": "failed", "job_id": "", "host": "", "last_error": "boom"}\n' >"$D/slurm/cells/0.json"
out=$("$CLI" campaign sweep-cell "$D" 0 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q "already failed 3 times" <<<"$out" && grep -q "resubmit --retry-failed" <<<"$out" ||
  fail "gave up: exit $rc, '$out'"
grep -q "gave up after 3 attempts" "$D/slurm/cells/0.json" || fail "gave up: the cell record does not say so"
"$CLI" campaign sweep cancel "$D" >"$TMP/cancel.log" 2>&1 || { cat "$TMP/cancel.log"; fail "cancel of a finished sweep failed"; }
out=$(PATH=/nonexistent "$CLI" "${SWEEP[@]}" --out "$TMP/nosbatch" --scheduler slurm 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "sbatch is not on PATH" <<<"$out" || fail "no sbatch: exit $rc, '$out'"
[ -e "$TMP/nosbatch" ] && fail "no sbatch: the sweep folder was created anyway"
out=$("$CLI" "${SWEEP[@]}" --out "$TMP/refused" --scheduler slurm --sbatch-arg=--partition=no-such-partition 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q "sbatch refused" <<<"$out" && grep -qi "partition" <<<"$out" || fail "refused: exit $rc, '$out'"
[ -e "$TMP/refused/slurm/jobs.json" ] && fail "refused: jobs.json written although nothing was submitted"
step "passed"
