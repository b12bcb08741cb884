# Sourced by the solver benchmarks: `machine` prints one line naming the host's CPU, cores,
# memory and load, and what a random read of a 2.4 GB buffer costs on it (the floor under a
# pattern-database look-up; `solver/random_reads.c`, built here with gcc when there is one).
# The same VM kind has landed on hosts whose memory differs by two times, so a figure is
# read beside this line and compared only with figures from the same run.
machine() {
  local here probe reads=""
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  probe=$(mktemp)
  if gcc -O2 "$here/solver/random_reads.c" -o "$probe" 2> /dev/null; then
    # Bursts of 1 (each read alone) and of 16 (reads overlapping).
    reads=$("$probe" 2400 | awk '/burst (1|16):/ {sub(":", "", $5); printf "%s%s ns a read in bursts of %s", sep, $6, $5; sep = ", "}')
    reads="; 2.4 GB random reads: $reads"
  fi
  rm -f "$probe"
  echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)$reads"
}
