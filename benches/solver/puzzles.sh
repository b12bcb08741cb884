#!/usr/bin/env bash
# Optimal solving beyond the 3x3x3: uniformly random positions (seeded) of other puzzles
# and subgroups, solved and proved optimal by `puz` in one batch each, tables built first
# into an empty cache folder. Each batch prints the lengths, how many were proved and
# re-checked; the line after it is the wall time and peak memory of the whole run.
#
#   benches/solver/puzzles.sh             # every row
#   ONLY=megaminx benches/solver/puzzles.sh
#   LIMIT=600 benches/solver/puzzles.sh   # seconds allowed a row
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
cargo build --release -q
PUZ=$ROOT/target/release/puz
LIMIT=${LIMIT:-900}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

row() {
  local name=$1 script=$2 limit=${3:-$LIMIT}
  if [ "$limit" -gt "$LIMIT" ]; then limit=$LIMIT; fi
  if [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ]; then return; fi
  echo "### $name"
  echo "$script"
  mkdir -p "$WORK/$name"
  if ! /usr/bin/time -f "%e s wall, %M KB peak" -o "$WORK/time" \
      timeout "$limit" "$PUZ" --cache "$WORK/$name" -e "$script" > "$WORK/out" 2> "$WORK/err"; then
    echo "(stopped after $limit s, or failed; the last costs searched:)"
    tr '\r' '\n' < "$WORK/err" | grep -E "batch: item|searched:|×" | tail -n 4
  fi
  grep -E "^batch|^mean|^maximum|^proved|^  +[0-9]+ +[0-9]+$" "$WORK/out" || true
  cat "$WORK/time"
  echo
}

. "$ROOT/benches/machine.sh"
machine
echo "# puz $(git rev-parse --short HEAD)"
row skewb 'use skewb; batch(random(group, count: 100, seed: 1), optimal)'
row pyraminx 'use pyraminx; batch(random(group, count: 100, seed: 1), optimal)'
# htm on cube2 is <U, R, F> (DLB fixed): all faces need a metric of their own.
row cube2_all_faces 'use cube2; metric all = {U, U2, U'"'"', D, D2, D'"'"', R, R2, R'"'"', L, L2, L'"'"', F, F2, F'"'"', B, B2, B'"'"'}; batch(random(<U, D, R, L, F, B>, count: 100, seed: 1), optimal, metric: all)'
row megaminx 'use megaminx; metric m = {U, U2, U2'"'"', U'"'"', R, R2, R2'"'"', R'"'"'}; batch(random(<U, R>, count: 5, seed: 1), optimal, metric: m)'
# The Megaminx's last layer (every piece off the U face in place: 4,665,600 positions), in
# <U, R> (291,600 of them: those <U, R> reaches) with its fifth and two-fifth turns, then
# with the twelve faces' turns: the latter run 600 s at most, to show how far it gets.
MEGA_F2L='D_DBR_DR, D_B_DBR, D_DBL_B, D_DL_DBL, D_DR_DL, F_DR_R, BR_B_BL, F_L_DL, R_DBR_BR, BL_DBL_L, F_DL_DR, BR_DBR_B, L_DBL_DL, R_DR_DBR, BL_B_DBL, D_DR, D_B, D_DL, D_DBR, D_DBL, F_R, BR_BL, F_L, R_BR, BL_L, F_DR, BR_B, L_DL, R_DBR, BL_DBL, F_DL, BR_DBR, L_DBL, R_DR, BL_B, DR_DBR, B_DBL, DR_DL, DBR_B, DBL_DL'
row megaminx_ll_ur 'use megaminx; metric m = {U, U2, U2'"'"', U'"'"', R, R2, R2'"'"', R'"'"'}; let LL = stabilizer(<U, R>, [R_DBR_BR, R_DR_DBR, F_DR_R, R_BR, R_DBR, R_DR, F_R]); batch(random(LL, count: 20, seed: 1), optimal, metric: m)'
row megaminx_ll "use megaminx; let LL = stabilizer(group, [$MEGA_F2L]); batch(random(LL, count: 1, seed: 1), optimal)" 600
row cube4_half_turns 'use cube4; metric h = {U2, D2, R2, L2, F2, B2, u2, d2, r2, l2, f2, b2}; batch(random(<U2, D2, R2, L2, F2, B2, u2, d2, r2, l2, f2, b2>, count: 2, seed: 1), optimal, metric: h)'
# The 4x4x4's outer layers as in the 3x3x3's G1 (1.2·10^12), then with the u and d slices'
# half turns (3.6·10^14), then with every slice's (2.9·10^23: out of reach, since at most a
# quarter of its positions lie within 21 moves, 7.2·10^22 canonical sequences being that
# short, and the search grows about 13 times a move past cost 18's 17 M nodes): run 300 s
# at most, to show how far it gets.
row cube4_g1 'use cube4; metric h = {U, U2, U'"'"', D, D2, D'"'"', R2, L2, F2, B2}; batch(random(<U, D, R2, L2, F2, B2>, count: 10, seed: 1), optimal, metric: h)'
row cube4_g1_ud_slices 'use cube4; metric h = {U, U2, U'"'"', D, D2, D'"'"', R2, L2, F2, B2, u2, d2}; batch(random(<U, D, R2, L2, F2, B2, u2, d2>, count: 5, seed: 1), optimal, metric: h)'
row cube4_g1_all_slices 'use cube4; metric h = {U, U2, U'"'"', D, D2, D'"'"', R2, L2, F2, B2, u2, d2, r2, l2, f2, b2}; batch(random(<U, D, R2, L2, F2, B2, u2, d2, r2, l2, f2, b2>, count: 1, seed: 1), optimal, metric: h)' 300
