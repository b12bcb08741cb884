#!/usr/bin/env bash
# A Hamilton cycle far past memory as a user publishes and checks it: one process builds
# and saves it (`save`), then fresh processes read the file back and certify it by
# cosets. Prints each step's wall time and peak memory, and the file's size.
#
#   bash benches/hamilton/cycle_file.sh qtm     # the whole 3x3x3, quarter turns: ~8 min, 8 GiB
#   bash benches/hamilton/cycle_file.sh htm     # the whole 3x3x3, half-turn metric: the same
#   bash benches/hamilton/cycle_file.sh cube4urdl  # the 4x4x4's <U, R, D, L>: ~12 min, 14 GiB
#   bash benches/hamilton/cycle_file.sh cube4   # the 4x4x4's outer faces: its joining level
#                                               # does not finish yet; CERTIFY=1 to certify
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v /usr/bin/time >/dev/null || apt-get install -y -q time >/dev/null
cargo build --release -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
which=${1:-qtm}
certify=${CERTIFY:-1}
case $which in
qtm)
    puzzle=cube3
    group='<U, R, D, L, F>'
    chain='[<U, R>, <U, R, D>, <U, R, D, L>]'
    ;;
htm)
    puzzle=cube3
    group='<U, U2, R, R2, D, D2, L, L2, F, F2, B, B2>'
    chain='[<U, R>, <U, U2, R, R2, D, D2>, <U, U2, R, R2, D, D2, L, L2>, <U, U2, R, R2, D, D2, L, L2, F, F2>]'
    ;;
cube4urdl)
    puzzle=cube4
    group='<U, R, D, L>'
    chain='[<U, R>, <U, R, D>]'
    ;;
cube4)
    puzzle=cube4
    group='<U, R, D, L, F>'
    chain='[<U, R>, <U, R, D>, <U, R, D, L>]'
    certify=${CERTIFY:-0}
    ;;
*)
    echo "usage: $0 qtm|htm|cube4urdl|cube4" >&2
    exit 2
    ;;
esac
file="$dir/${which}_cycle.puz"
step() {
    local what=$1 script=$2
    echo "$what"
    printf '%s\n' "$script" | sed 's/^/    /'
    printf '%s\n' "$script" > "$dir/step.puz"
    /usr/bin/time -f "    %e s wall, %U s user, peak %M KB" \
        ./target/release/puz --quiet "$dir/step.puz" 2>&1 | sed 's/^/    /'
}
step "build and save (no certificate):" "use $puzzle
let h = hamilton($group, chain: $chain, certify: false)
save(h, \"$file\")"
echo "file: $(stat -c %s "$file") bytes, $(grep -c '^let ' "$file") definitions"
step "read back in a fresh process:" "use \"$file\"
length(h)"
if [ "$certify" = 1 ]; then
    step "read back and certify by cosets in a fresh process:" "use \"$file\"
check_hamilton(h, $group, chain: $chain)"
fi
