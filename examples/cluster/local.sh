#!/usr/bin/env bash
# A batch as N shards on this machine, P at a time, then the merge:
#   examples/cluster/local.sh [SCRIPT] [OUT] [N] [P]
# PUZ names the binary (default: puz on the PATH); PUZ_CACHE a shared table folder.
# A shard stopped part-way (Ctrl-C, kill -9, a reboot) resumes when run again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=${1:-$here/random_cube2.puz}
out=${2:-puz-batch-out}
n=${3:-8}
p=${4:-2}
puz=${PUZ:-puz}
cache=()
if [ -n "${PUZ_CACHE:-}" ]; then cache=(--cache "$PUZ_CACHE"); fi
seq 0 $((n - 1)) | xargs -P "$p" -I{} "$puz" batch "$script" --shard "{}/$n" --out "$out" "${cache[@]}" --quiet
"$puz" merge "$out"
