#!/usr/bin/env bash
# All benchmarks, each against its peers in one run. They install their peers (GAP from
# Debian, twips from crates.io, sympy from PyPI); CI never runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== puz end to end (release binary)"
cargo build --release -q
TIMEFORMAT='%R s wall, %U s user'
t() { echo "$*"; time "$@" > /dev/null 2>&1; }
t ./target/release/puz -e 'use cube3; order(group)'
t ./target/release/puz -e 'use megaminx; order(group)'
t ./target/release/puz -e 'use cube2; distances(group)'
t ./target/release/puz -e 'use cube2; let h = hamilton(group); check_hamilton(h, group)'
t ./target/release/puz -e 'use cube3; let h = hamilton(<U, R>); check_hamilton(h, <U, R>)'
echo "== sympy (PyPI) on the stdlib orders"
python3 -c "import sympy" 2>/dev/null || pip install -q sympy
python3 tools/stdlib_check.py --order-only || true
echo "== puz-group vs GAP"
bash benches/group/run.sh
echo "== puz-hamilton"
cargo run --release -q -p puz-hamilton --example hamilton_bench
echo "== puz-solver vs twips"
bash benches/solver/run.sh
