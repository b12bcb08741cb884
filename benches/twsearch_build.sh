# Sourced by the benchmarks that run the C++ twsearch: builds it once from its public
# source into benches/solver/.twsearch (never committed) and sets TWS to the binary.
# TWSEARCH_SRC: a source tree to copy; else TWSEARCH_GIT: a git mirror to `git archive`.
TWSEARCH_GIT=${TWSEARCH_GIT:-/work/.mirror/rokicki+twsearch/repo}
TW=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/solver/.twsearch
if [ ! -x "$TW/build/bin/twsearch" ]; then
  mkdir -p "$TW"
  if [ -n "${TWSEARCH_SRC:-}" ]; then
    cp -r "$TWSEARCH_SRC"/. "$TW"
  else
    git -C "$TWSEARCH_GIT" archive HEAD | tar -x -C "$TW"
  fi
  make -C "$TW" build > "$TW/build.log" 2>&1
fi
TWS=$TW/build/bin/twsearch
