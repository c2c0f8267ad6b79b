# A single-node Slurm cluster in a temp folder, started as the user who runs the tests (sourced by the
# cluster tests). munged with its own key, socket, pid, log and seed files; slurmctld and slurmd from a
# generated slurm.conf (the node is this host as `hostname -s` names it, free ports, proctrack/linuxproc,
# task/none, no cgroup plugin, state/spool/logs/pids in the temp folder). Clients reach it through SLURM_CONF.
# Only the daemons started here are stopped, by their pids (cluster_stop, also from the caller's EXIT trap).
#
#   cluster_start TMPDIR     → exports SLURM_CONF; fails (return 1) with the daemons' log tails
#   cluster_stop             → kills slurmd, slurmctld and munged by pid, waits for them
#   cluster_logs             → the tails of the three logs (for failure messages)

SF_CLUSTER_DIR=""
SF_CLUSTER_PIDS=()

cluster_fail() {
  echo "CLUSTER: $*" >&2
  cluster_logs >&2
  return 1
}

cluster_logs() {
  [ -n "$SF_CLUSTER_DIR" ] || return 0
  local f
  for f in munged.log slurmctld.log slurmd.log; do
    if [ -f "$SF_CLUSTER_DIR/log/$f" ]; then
      echo "---- tail of $SF_CLUSTER_DIR/log/$f"
      tail -n 25 "$SF_CLUSTER_DIR/log/$f"
    fi
  done
}

# A TCP port nobody listens on (asks the kernel for an ephemeral one).
cluster_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null && return 0
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 30000))
    if ! ss -ltn 2>/dev/null | awk '{print $4}' | grep -q ":$p\$"; then echo "$p"; return 0; fi
  done
  return 1
}

cluster_need() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v "$c" >/dev/null 2>&1 ||
      { echo "CLUSTER: '$c' is not installed: install Slurm and MUNGE (Debian: apt-get install slurm-wlm munge; scripts/install-deps.sh does)" >&2; return 1; }
  done
}

cluster_pid_of() {  # the pid in a pid file, waiting up to 10 s for the file
  local f=$1
  for _ in $(seq 1 100); do
    if [ -s "$f" ]; then cat "$f"; return 0; fi
    sleep 0.1
  done
  return 1
}

cluster_start() {
  export PATH="$PATH:/usr/sbin:/sbin"
  cluster_need munged slurmctld slurmd sinfo sbatch squeue scontrol scancel || return 1
  SF_CLUSTER_DIR=$1
  local d=$SF_CLUSTER_DIR
  mkdir -p "$d/munge" "$d/munge-socket" "$d/state" "$d/spool" "$d/log" "$d/run" || return 1
  # munged wants its key folder private and its socket folder (and the folders above it) searchable by all.
  chmod 700 "$d/munge"
  chmod 755 "$d" "$d/munge-socket" "$(dirname "$d")"
  # munge refuses keys and folders that others can write; a fresh 1 KiB key per cluster.
  dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none || return 1
  chmod 400 "$d/munge/munge.key"
  local socket="$d/munge-socket/munge.socket"
  local force=()
  [ "$(id -u)" = 0 ] && force=(--force)
  munged "${force[@]}" --socket="$socket" --key-file="$d/munge/munge.key" --pid-file="$d/run/munged.pid" \
    --log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed" >"$d/log/munged.out" 2>&1 ||
    { cat "$d/log/munged.out" >&2; cluster_fail "munged did not start"; return 1; }
  local mpid
  mpid=$(cluster_pid_of "$d/run/munged.pid") || { cluster_fail "munged wrote no pid file"; return 1; }
  SF_CLUSTER_PIDS+=("$mpid")

  local host user ctl_port d_port
  host=$(hostname -s)
  user=$(id -un)
  ctl_port=$(cluster_free_port) && d_port=$(cluster_free_port) || { cluster_fail "no free TCP port"; return 1; }
  while [ "$d_port" = "$ctl_port" ]; do d_port=$(cluster_free_port); done
  cat >"$d/slurm.conf" <<CONF
ClusterName=sfcluster
SlurmctldHost=$host
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
MpiDefault=none
ReturnToService=2
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
KillWait=5
MinJobAge=600
InactiveLimit=0
MessageTimeout=10
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$d/slurm.conf"
  slurmctld -c -f "$SLURM_CONF" >"$d/log/slurmctld.out" 2>&1 ||
    { cat "$d/log/slurmctld.out" >&2; cluster_fail "slurmctld did not start"; return 1; }
  local cpid
  cpid=$(cluster_pid_of "$d/run/slurmctld.pid") || { cluster_fail "slurmctld wrote no pid file"; return 1; }
  SF_CLUSTER_PIDS+=("$cpid")
  slurmd -f "$SLURM_CONF" -N "$host" >"$d/log/slurmd.out" 2>&1 ||
    { cat "$d/log/slurmd.out" >&2; cluster_fail "slurmd did not start"; return 1; }
  local dpid
  dpid=$(cluster_pid_of "$d/run/slurmd.pid") || { cluster_fail "slurmd wrote no pid file"; return 1; }
  SF_CLUSTER_PIDS+=("$dpid")

  local state=""
  for _ in $(seq 1 120); do  # up to 60 s for the node to register and become idle
    state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n1)
    [ "$state" = "idle" ] && return 0
    sleep 0.5
  done
  cluster_fail "the node did not become idle within 60 s (sinfo state: '${state:-none}')"
  return 1
}

# Processes holding a file of this cluster's folder open (a job's slurmstepd logs to slurmd.log): what
# stopping slurmd can leave behind when a job was still running.
cluster_stray_pids() {
  [ -n "$SF_CLUSTER_DIR" ] || return 0
  local p
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
    if ls -l "$p/fd" 2>/dev/null | grep -qF -- "$SF_CLUSTER_DIR/"; then echo "${p#/proc/}"; fi
  done
}

cluster_stop() {
  local pid i
  if [ -n "${SLURM_CONF:-}" ] && [ "${#SF_CLUSTER_PIDS[@]}" -ge 2 ]; then
    # Jobs of this private cluster only (SLURM_CONF points at it): cancel them and give them 10 s to end.
    local ids
    ids=$(squeue -h -o '%A' 2>/dev/null | sort -u)
    if [ -n "$ids" ]; then
      # shellcheck disable=SC2086
      scancel $ids 2>/dev/null
      for _ in $(seq 1 50); do
        [ -z "$(squeue -h -o '%A' 2>/dev/null)" ] && break
        sleep 0.2
      done
    fi
  fi
  for ((i = ${#SF_CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do  # slurmd, slurmctld, then munged
    pid=${SF_CLUSTER_PIDS[$i]}
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  done
  SF_CLUSTER_PIDS=()
  for pid in $(cluster_stray_pids); do kill -9 "$pid" 2>/dev/null || true; done
}
