#!/usr/bin/env bash
# A batch as a Slurm array job, one shard a task:
#   sbatch examples/cluster/sbatch.sh SCRIPT OUT [CACHE]
#   sbatch --array=0-31 examples/cluster/sbatch.sh SCRIPT OUT [CACHE]   (32 shards)
# Each task runs shard SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT (puz reads both),
# appending to OUT/shard-K.jsonl; a task requeued or submitted again resumes its file.
# OUT and CACHE must be on a file system every node sees; make CACHE once beforehand
# (the first shard that needs a table builds it, the others wait and read it). Then:
#   puz merge OUT
#SBATCH --job-name=puz-batch
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --output=puz-batch-%A_%a.log
set -euo pipefail
script=${1:?usage: sbatch sbatch.sh SCRIPT OUT [CACHE]}
out=${2:?usage: sbatch sbatch.sh SCRIPT OUT [CACHE]}
cache=()
if [ -n "${3:-}" ]; then cache=(--cache "$3"); fi
exec "${PUZ:-puz}" batch "$script" --out "$out" "${cache[@]}" --quiet
