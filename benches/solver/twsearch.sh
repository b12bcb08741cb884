#!/usr/bin/env bash
# puz-solver against the C++ twsearch (built here from its public source), same positions,
# same memory (-M MiB) and threads: table build time and optimal solve times, 3x3x3 htm.
# On demand only (CI never runs it); twsearch's code is never committed: it is built from
# TWSEARCH_SRC, or from the git mirror TWSEARCH_GIT (git archive), into benches/solver/.twsearch.
#
#   benches/solver/twsearch.sh                     # 1 GiB, 3 positions of 16 random moves
#   MEM_MIB=4096 N=5 MOVES=18 benches/solver/twsearch.sh
#   STATES=1 MEM_MIB=4096 N=2 TIMEOUT=600 benches/solver/twsearch.sh   # uniformly random states
#   PUZ_CACHE= STATES=1 ... benches/solver/twsearch.sh   # puz's tables in memory only
#
# twsearch fills its (hashed, 2-bit) table lazily, deeper as a search needs it; its build
# time below is the sum of its "Filling depth" lines over the whole run. puz builds its
# tables up front into an empty cache folder ("tables ready").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target-solver}
MEM_MIB=${MEM_MIB:-1024}
THREADS=${THREADS:-2}
N=${N:-3}
MOVES=${MOVES:-16}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-900}
export RAYON_NUM_THREADS=$THREADS
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

. "$ROOT/benches/twsearch_build.sh"
(cd "$HERE/bench" && cargo build --release -q)
B=$CARGO_TARGET_DIR/release/puz-solver-bench

now() { date +%s.%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
what="$N positions of $MOVES random htm moves"
[ "${STATES:-0}" = 1 ] && what="$N uniformly random states"
. "$ROOT/benches/machine.sh"
machine
echo "# $(uname -m), threads $THREADS, memory $MEM_MIB MiB, $what (seed $SEED)"
echo "# twsearch $(git -C "$TWSEARCH_GIT" rev-parse --short HEAD 2>/dev/null || echo '(source from TWSEARCH_SRC)')"

if [ "${STATES:-0}" = 1 ]; then
  # Uniformly random states (those of `puz-solver-bench random htm N SEED`), each as a
  # sequence that makes it.
  "$B" states "$N" "$SEED" > "$WORK/scrambles.txt"
else
  "$B" scrambles "$N" "$SEED" "$MOVES" > "$WORK/scrambles.txt"
fi
cat "$WORK/scrambles.txt"

# puz: tables built into an empty cache folder, then the positions solved.
export XDG_CACHE_HOME=$WORK/cache
"$B" optimal htm "$WORK/scrambles.txt" "$MEM_MIB" 2>/dev/null | tee "$WORK/puz.out" | grep -v '^  '
puz_build=$(awk '/tables ready in/ {print $5}' "$WORK/puz.out")
# The tables' bytes in memory (with the reduced tables' classes); with PUZ_CACHE set and
# empty they are built in memory only, nothing written (as twsearch's --nowrite).
puz_bytes=$(awk '/tables ready in/ {gsub(/\(/, "", $7); print $7}' "$WORK/puz.out")
puz_solve=$(awk '/optimal total/ {print $4}' "$WORK/puz.out")

# twsearch: the same scrambles on standard input, its table in memory only.
t0=$(now)
timeout "$TIMEOUT" "$TWS" -M "$MEM_MIB" -t "$THREADS" --nowrite -s "$TW/samples/main/3x3x3.tws" \
  < "$WORK/scrambles.txt" > "$WORK/tws.out" 2>&1 || echo "twsearch: stopped after ${TIMEOUT} s (or failed)"
t1=$(now)
grep -E "^ [A-Z]|^Found|^Filling" "$WORK/tws.out" || true
tws_fill=$(awk '/^Filling depth/ {s += $(NF-2)} END {printf "%.2f", s}' "$WORK/tws.out")
tws_all=$(echo "$t1 - $t0" | bc)
tws_solve=$(echo "$tws_all - $tws_fill" | bc)

gib() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1073741824 }'; }
# The issue's measure is the time a GiB (the tables differ in size): both ratios shown.
puz_per=$(awk -v t="$puz_build" -v b="$puz_bytes" 'BEGIN { printf "%.2f", t * 1073741824 / b }')
tws_per=$(awk -v t="$tws_fill" -v m="$MEM_MIB" 'BEGIN { printf "%.2f", t * 1024 / m }')
printf 'table build   puz %8.2f s (%s GiB, %s s/GiB)   twsearch %8.2f s of filling (%s GiB table, %s s/GiB)   puz/twsearch %s, a GiB %s\n' \
  "$puz_build" "$(gib "$puz_bytes")" "$puz_per" \
  "$tws_fill" "$(gib $((MEM_MIB << 20)))" "$tws_per" "$(ratio "$puz_build" "$tws_fill")" "$(ratio "$puz_per" "$tws_per")"
printf 'solve total   puz %8.2f s   twsearch %8.2f s (run %.2f s less its filling)   puz/twsearch %s\n' \
  "$puz_solve" "$tws_solve" "$tws_all" "$(ratio "$puz_solve" "$tws_solve")"
printf 'whole run     puz %8.2f s   twsearch %8.2f s   puz/twsearch %s\n' \
  "$(echo "$puz_build + $puz_solve" | bc)" "$tws_all" "$(ratio "$(echo "$puz_build + $puz_solve" | bc)" "$tws_all")"
