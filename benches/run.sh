#!/usr/bin/env bash
# All benchmarks, each against its peers in one run, and the figures written anew into
# benches/results.md (the one place figures live; code comments and docs point there).
# The scripts install their peers (GAP from Debian, twips from crates.io, sympy from PyPI);
# CI never runs this.
#
#   benches/run.sh              # every section, results.md rewritten
#   OUT=/tmp/r.md benches/run.sh   # elsewhere
#   FUZZ_CASES=100000 FUZZ_SECONDS=3600 benches/run.sh   # the fuzzing section's extent
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-benches/results.md}
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
{
echo "# Benchmark results"
echo
echo "Written by \`benches/run.sh\` at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"
echo "$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo),"
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)."
echo "Each section is the raw output of the command named in its heading."
echo
section() { echo; echo "## \`$*\`"; echo; echo '```'; "$@" 2>&1 || echo "(exit $?)"; echo '```'; }
echo "## puz end to end (release binary)"
echo
echo '```'
cargo build --release -q
TIMEFORMAT='%R s wall, %U s user'
t() { echo "$*"; { time "$@" > /dev/null 2>&1; } 2>&1; }
t ./target/release/puz -e 'use cube3; order(group)'
t ./target/release/puz -e 'use megaminx; order(group)'
t ./target/release/puz -e 'use cube2; distances(group)'
t ./target/release/puz -e 'use cube2; let h = hamilton(group); check_hamilton(h, group)'
t ./target/release/puz -e 'use cube3; let h = hamilton(<U, R>); check_hamilton(h, <U, R>)'
echo '```'
python3 -c "import sympy" 2>/dev/null || pip install -q sympy
section python3 tools/stdlib_check.py --order-only
section bash benches/group/run.sh
section cargo run --release -q -p puz-hamilton --example hamilton_bench
section cargo run --release -q -p puz-hamilton --example hamilton_chain full
section bash benches/hamilton/cycle_file.sh qtm
section bash benches/hamilton/cycle_file.sh htm
section bash benches/solver/run.sh
section bash benches/cluster/run.sh
section bash benches/pictures/run.sh
# The fuzzer's counts per outcome (scripts of defects go to target/fuzz/).
section nice ./target/release/puz-fuzz --seed 1 --cases "${FUZZ_CASES:-100000}" \
    --seconds "${FUZZ_SECONDS:-3600}" --limit-ms 1000 --out target/fuzz
} | tee "$TMP"
cp "$TMP" "$OUT"
echo "figures written to $OUT"
