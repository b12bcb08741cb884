#!/usr/bin/env bash
# Pictures in a real browser: puz writes an SVG of a scrambled position of every stdlib
# puzzle, headless Chromium renders each one, and check.py compares every sticker's
# painted colour with its fill. Installs Chromium (Debian) and Pillow (PyPI) if missing;
# CI never runs this (the tests parse the same SVGs as XML).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v chromium >/dev/null || apt-get install -y -q chromium >/dev/null
python3 -c "import PIL" 2>/dev/null || pip install -q pillow
cargo build --release -q
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
for p in cube2 cube3 cube4 skewb pyraminx megaminx floppy cheese clock lightsout sixpiece topspin; do
  ./target/release/puz -q -e "use $p; svg(random(group, seed: 1), \"$DIR/$p.svg\")" >/dev/null
done
./target/release/puz -q -e "use cube2; svg(distances(<U, R>), \"$DIR/distances.svg\")" >/dev/null
python3 benches/pictures/check.py "$DIR"
