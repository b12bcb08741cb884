#!/usr/bin/env bash
# The whole 3x3x3 quarter-turn Hamilton cycle as a user publishes and checks it: one
# process builds and saves it (`save`), then fresh processes read the file back and
# certify it by cosets. Prints each step's wall time and peak memory, and the file's size.
#
#   bash benches/hamilton/cube3_file.sh          # about 8 minutes, 8 GiB at the peak
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v /usr/bin/time >/dev/null || apt-get install -y -q time >/dev/null
cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file="$dir/cube3_qtm_cycle.puz"
chain='[<U, R>, <U, R, D>, <U, R, D, L>]'
step() {
    local what=$1 script=$2
    echo "$what"
    printf '%s\n' "$script" | sed 's/^/    /'
    printf '%s\n' "$script" > "$dir/step.puz"
    /usr/bin/time -f "    %e s wall, %U s user, peak %M KB" \
        ./target/release/puz --quiet "$dir/step.puz" 2>&1 | sed 's/^/    /'
}
step "build and save (no certificate):" "use cube3
let h = hamilton(<U, R, D, L, F>, chain: $chain, certify: false)
save(h, \"$file\")"
echo "file: $(stat -c %s "$file") bytes, $(grep -c '^let ' "$file") definitions"
step "read back in a fresh process:" "use \"$file\"
length(h)"
step "read back and certify by cosets in a fresh process:" "use \"$file\"
check_hamilton(h, <U, R, D, L, F>, chain: $chain)"
