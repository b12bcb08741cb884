#!/usr/bin/env bash
# Distance counts of imported puzzles against twsearch's own (`twsearch -g`): for each
# small sample of tests/data/tws/ that puz loads, puz's `distance_counts(group)` after
# `use "FILE"` and twsearch's "Dist d cnt c" lines must be the same list. twsearch is built
# from its public source (as benches/solver/twsearch.sh does; never committed); CI never
# runs this.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$ROOT/benches/twsearch_build.sh"
cd "$ROOT"
cargo build --release -q
PUZ=$ROOT/target/release/puz
# Loaded by puz and small enough for a dense table on this machine.
FILES=${FILES:-"pyramorphix lo33 master_pyramorphix skewb_diamond mastermorphix skewb Jing_pyraminx 2x2x2 turnfour tangram dino pyraminx"}
fail=0
for f in $FILES; do
  file=tests/data/tws/$f.tws
  t0=$(date +%s.%N)
  # (twsearch may end with an empty distance: "Dist 12 cnt 0".)
  tw=$(timeout 900 "$TWS" -g "$file" 2>&1 | awk '/^Dist [0-9]+ cnt/ && $4 > 0 {printf "%s%s", sep, $4; sep=", "}')
  t1=$(date +%s.%N)
  pz=$("$PUZ" -q --raw -e "use \"$file\"; distance_counts(group)" 2>&1 | tr -d '[]' | tail -1)
  t2=$(date +%s.%N)
  if [ "$tw" = "$pz" ]; then verdict=same; else verdict=DIFFERENT; fail=1; fi
  printf "%-20s %s  (twsearch %.1f s, puz %.1f s)\n  puz      [%s]\n" "$f" "$verdict" \
    "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$pz"
  [ "$verdict" = same ] || printf "  twsearch [%s]\n" "$tw"
done
exit $fail
