#!/usr/bin/env bash
# Times nxopt's table built in memory by several builds of the bench driver, in turn
# (A B A B ...): single runs on a VM swing by 10-20% with its host, so a change is judged
# by interleaved runs. Each run starts 20 s after the one before settles (the first run
# after a build otherwise starts its fill seconds late while memory is reclaimed).
#
#   benches/solver/interleave.sh ROUNDS METRIC MIB BINARY...
#   benches/solver/interleave.sh 2 htm 4096 /tmp/before/puz-solver-bench /tmp/after/puz-solver-bench
#
# Prints, per run, the first table's levels as its once-a-second progress lines show them
# (a level shorter than a second may not show), its build time and a digest of the counts
# (equal digests: the same tables' values).
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,12p' "$0"; exit 2; }
ROUNDS=$1 METRIC=$2 MIB=$3
shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../machine.sh"
machine
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  for bin in "$@"; do
    sleep 20
    counts=$(PUZ_CACHE= "$bin" values "$METRIC" "$MIB" 2>"$LOG" | grep -v ' built \|^ *\.\.' | md5sum | cut -c1-12)
    levels=$(awk '
      /table 1 of/ { match($0, /distance [0-9]+/); d = substr($0, RSTART + 9, RLENGTH - 9)
                     if (d != last) { at[d] = $2; order[++n] = d; last = d } }
      / built in / && !done { for (i = 2; i <= n; i++) printf "level %s %.1f s, ", order[i-1], at[order[i]] - at[order[i-1]]
                              if (n) printf "level %s %.1f s, ", order[n], $2 - at[order[n]]
                              printf "built at %s s", $2; done = 1 }' "$LOG")
    echo "round $round $bin: $levels; counts $counts"
  done
done
