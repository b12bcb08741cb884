#!/usr/bin/env bash
# Times several builds of the bench driver in turn (A B A B ...), each as a user's first
# call meets it: the tables built into an empty cache folder, then one uniformly random
# htm state solved, whole process. Prints, per run, when the tables were ready, the
# solve's time and the whole process's (which includes waiting for the cache's files).
# See interleave.sh for why runs are interleaved.
#
#   benches/solver/interleave_cached.sh ROUNDS MIB BINARY...
#   benches/solver/interleave_cached.sh 2 4096 /tmp/before/puz-solver-bench /tmp/after/puz-solver-bench
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,9p' "$0"; exit 2; }
ROUNDS=$1 MIB=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../machine.sh"
machine
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$1" states 1 1 > "$WORK/state.txt"
for round in $(seq 1 "$ROUNDS"); do
  for bin in "$@"; do
    rm -rf "$WORK/cache"
    sync
    sleep 15
    s=$(date +%s.%N)
    PUZ_CACHE="$WORK/cache" "$bin" optimal htm "$WORK/state.txt" "$MIB" > "$WORK/out" 2> /dev/null
    e=$(date +%s.%N)
    ready=$(awk '/tables ready in/ {print $5}' "$WORK/out")
    solve=$(awk '/optimal total/ {print $4}' "$WORK/out")
    echo "round $round $bin: tables ready in $ready s, solved in $solve s, whole process $(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }') s"
  done
done
