#!/usr/bin/env bash
# puz batch through a real Slurm array job on this machine: installs Debian's slurm-wlm,
# runs slurmctld and slurmd on localhost, submits examples/cluster/sbatch.sh over the
# first COUNT of benches/cluster/random_atm.puz's random 3x3x3 positions (optimal in atm),
# merges, and prints the summary, the time a position and the cost of a 10,000-position
# sample (the size that pins the mean to about two decimals: the standard deviation of
# the distances is near 0.7, so 0.7/sqrt(10000) = 0.007).
#   benches/cluster/run.sh [COUNT] [SHARDS]      (defaults: 200 and 2; needs root)
#   BATCH=examples/cluster/random_cube2.puz benches/cluster/run.sh 100   (another batch)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-200}
shards=${2:-2}
cargo build --release -q
puz=$PWD/target/release/puz
work=$(mktemp -d /tmp/puz-slurm-XXXX)
if ! command -v slurmctld > /dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm > /dev/null
fi
host=$(hostname -s)
cpus=$(nproc)
mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
cat > /etc/slurm/slurm.conf << CONF
ClusterName=puz
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown -R munge: /etc/munge /run/munge /var/lib/munge /var/log/munge 2> /dev/null || true
pgrep -x munged > /dev/null || su -s /bin/sh munge -c munged
pgrep -x slurmctld > /dev/null || slurmctld
pgrep -x slurmd > /dev/null || slurmd
for _ in $(seq 60); do
    sinfo -h -o %T 2> /dev/null | grep -q idle && break
    scontrol update nodename="$host" state=resume 2> /dev/null || true
    sleep 1
done
sinfo
# The batch, cut to COUNT positions (the hash changes with it: its own results folder).
sed "s/count: [0-9]*/count: $count/" "${BATCH:-benches/cluster/random_atm.puz}" > "$work/random_atm.puz"
mkdir -p "$work/cache"
cp -l ~/.cache/puz/pdb-* "$work/cache/" 2> /dev/null || true
start=$(date +%s.%N)
PUZ=$puz sbatch --wait --array=0-$((shards - 1)) --cpus-per-task=$((cpus / shards)) \
    --chdir="$work" --output="$work/task-%a.log" \
    examples/cluster/sbatch.sh "$work/random_atm.puz" "$work/out" "$work/cache"
end=$(date +%s.%N)
echo "sbatch --array=0-$((shards - 1)): $count positions, $shards shards, $(echo "$end - $start" | bc) s wall"
"$puz" merge "$work/out" | tee "$work/merge.txt"
per=$(awk '/s an item/ {print $(NF-3)}' "$work/merge.txt")
hours=$(echo "$per * 10000 / 3600" | bc -l)
printf '10,000 positions at %s s each: %.1f shard-hours, %.1f hours on this machine with %s shards\n' \
    "$per" "$hours" "$(echo "$hours / $shards" | bc -l)" "$shards"
