#!/usr/bin/env bash
# A one-node Slurm cluster of its own in DIR, for the launcher tests: munged on its own socket and
# key, slurmctld and slurmd on their own ports, all as the current user, nothing shared with a
# system Slurm.   slurm_cluster.sh start DIR   (prints SLURM_CONF=...)   |   slurm_cluster.sh stop DIR
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"  # the daemons live in sbin, which a user's PATH may lack
action=${1:?usage: slurm_cluster.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: slurm_cluster.sh start|stop DIR}")

stop() {
  for pidfile in slurmd.pid slurmctld.pid munged.pid; do
    [ -f "$dir/$pidfile" ] && kill "$(cat "$dir/$pidfile")" 2>/dev/null || true
  done
}

if [ "$action" = stop ]; then stop; exit 0; fi

mkdir -p "$dir"/{state,spool,log}
user=$(id -un)
host=$(hostname -s)
# Ports from the directory's name, so that two clusters of concurrent tests do not meet; below the
# kernel's ephemeral range (32768 up), where a client socket could hold them, and above the test
# sshd's 10000-19999.
base=$(( 20000 + $(cksum <<< "$dir" | cut -d' ' -f1) % 12000 ))
# A rank's rendezvous port comes from its job id (20000 + id % 20000, core/dist/rank_layout.cpp):
# clusters of tests that run at once number their jobs apart, or their ranks would meet on one
# port (a real cluster's ids are unique).
first_job=$(( 1 + ($(cksum <<< "jobs $dir" | cut -d' ' -f1) % 900) * 20 ))
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge.key"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munged.seed"
cat > "$dir/slurm.conf" <<CONF
ClusterName=moe-e2e
SlurmctldHost=$host(127.0.0.1)
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
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ReturnToService=2
FirstJobId=$first_job
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=e2e Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 100); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then echo "SLURM_CONF=$SLURM_CONF"; exit 0; fi
  sleep 0.2
done
echo "slurm_cluster: the node did not come up; logs in $dir/log" >&2
stop
exit 1
