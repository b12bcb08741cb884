#!/usr/bin/env bash
# puz-group against GAP, side by side in one run (a benchmark, not a test; CI never runs it).
# Installs Debian's gap if it is missing. Prints: case, puz time, GAP time, ratio puz/GAP.
# Both sides time only the computation with their own clock (Rust Instant, GAP
# NanosecondsSinceEpoch), best of three; the orders / answers are printed and compared.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if ! command -v gap >/dev/null 2>&1; then
    apt-get update && apt-get install -y gap
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target-group}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p puz-group --example group_bench
"$CARGO_TARGET_DIR/release/examples/group_bench" "$work/bench.g" > "$work/puz.txt"
{ echo 'SetPrintFormattingStatus("*stdout*", false);'; cat "$work/bench.g"; echo 'QUIT;'; } > "$work/run.g"
gap -q -o 4g < "$work/run.g" > "$work/gap.txt"
grep '^info' "$work/puz.txt" || true
printf '%-20s %12s %12s %10s  %s\n' case "puz (s)" "GAP (s)" puz/GAP "same answer"
while read -r side name t answer; do
    [ "$side" = puz ] || continue
    line="$(grep "^gap $name " "$work/gap.txt" || true)"
    gt="$(echo "$line" | awk '{print $3}')"
    ga="$(echo "$line" | awk '{print $4}')"
    same=no; [ "$ga" = "$answer" ] && same=yes
    ratio="$(awk -v a="$t" -v b="$gt" 'BEGIN { if (b > 0) printf "%.4f", a / b; else print "n/a" }')"
    printf '%-20s %12.6f %12.6f %10s  %s\n' "$name" "$t" "$gt" "$ratio" "$same"
done < "$work/puz.txt"
