#!/usr/bin/env bash
# A Slurm cluster of its own in DIR, for the launcher tests: munged on its own socket and key,
# slurmctld and slurmd on their own ports, all as the current user, nothing shared with a system
# Slurm. One node, this machine; or, given test hosts (tests/e2e/hosts/test_hosts.sh, already up),
# one node per host: slurmctld on host 0, a slurmd on each, every daemon on its host's address.
#   slurm_cluster.sh start DIR [HOSTS N]   (prints SLURM_CONF=...)   |   slurm_cluster.sh stop DIR
# With hosts, run sinfo, srun and sbatch on one of them (test_hosts.sh run HOSTS 0 ...).
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"  # the daemons live in sbin, which a user's PATH may lack
usage="usage: slurm_cluster.sh start DIR [HOSTS N] | stop DIR"
action=${1:?$usage}
dir=$(realpath -m "${2:?$usage}")
hosts=${3:-}
count=${4:-1}
test_hosts="$(dirname "$(realpath "$0")")/../hosts/test_hosts.sh"

stop() {
  for pidfile in "$dir"/slurmd*.pid "$dir/slurmctld.pid" "$dir/munged.pid"; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
}
# Runs a daemon or client on host I, or here without hosts.
on_host() {
  local i=$1; shift
  if [ -n "$hosts" ]; then "$test_hosts" run "$hosts" "$i" "$@"; else "$@"; fi
}

if [ "$action" = stop ]; then stop; exit 0; fi

mkdir -p "$dir"/{state,spool,log}
user=$(id -un)
# The nodes: name and address of each (this machine alone, or one per test host).
names=() addrs=()
if [ -n "$hosts" ]; then
  for i in $(seq 0 $(( count - 1 ))); do
    names+=("$hosts-h$i") addrs+=("$("$test_hosts" addr "$hosts" "$i")")
  done
else
  names=("$(hostname -s)") addrs=(127.0.0.1)
fi
nodes=""
for i in "${!names[@]}"; do
  mkdir -p "$dir/spool/${names[$i]}"
  nodes+="NodeName=${names[$i]} NodeAddr=${addrs[$i]} CPUs=$(nproc) RealMemory=1000 State=UNKNOWN"
  nodes+=$'\n'
done
# Ports from the directory's name, so that two clusters of concurrent tests do not meet; below the
# kernel's ephemeral range (32768 up), where a client socket could hold them, and above the test
# sshd's 10000-19999.
base=$(( 20000 + $(cksum <<< "$dir" | cut -d' ' -f1) % 12000 ))
# A rank's rendezvous port comes from its job id (20000 + id % 20000, core/launch/rank_layout.cpp):
# clusters of tests that run at once number their jobs apart, or their ranks would meet on one
# port (a real cluster's ids are unique).
first_job=$(( 1 + ($(cksum <<< "jobs $dir" | cut -d' ' -f1) % 900) * 20 ))
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge.key"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munged.seed"
cat > "$dir/slurm.conf" <<CONF
ClusterName=moe-e2e
SlurmctldHost=${names[0]}(${addrs[0]})
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.%n.log
ReturnToService=2
FirstJobId=$first_job
${nodes}PartitionName=e2e Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF="$dir/slurm.conf"
on_host 0 slurmctld -c -f "$SLURM_CONF"
for i in "${!names[@]}"; do on_host "$i" slurmd -N "${names[$i]}" -f "$SLURM_CONF"; done
for _ in $(seq 1 100); do
  idle=$(on_host 0 sinfo -h -N -o %T 2>/dev/null | grep -c idle || true)
  if [ "$idle" = "$count" ]; then echo "SLURM_CONF=$SLURM_CONF"; exit 0; fi
  sleep 0.2
done
echo "slurm_cluster: the nodes did not come up; logs in $dir/log" >&2
stop
exit 1
