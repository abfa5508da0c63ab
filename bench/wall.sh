#!/usr/bin/env bash
# Times the ./nunac command as a user runs it (wall time including JVM start, peak resident
# memory), default compile (the placement search included) on nuna-4die: the all-to-all at 16
# to 256 ranks (3 runs each) and every plan of ../shared/corpus (once each, after one untimed
# run that trains the launcher's class-data archive). Prints "name seconds KiB" lines.
#   bench/wall.sh [repository root]     (default: this script's repository)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
./nunac examples/alltoall-direct.msccl --topo nuna-4die -D ranks=4 -o "$out/warm" >/dev/null 2>&1
run() { # name, then nunac's arguments
  local name=$1; shift
  NUNAC_JAVA_OPTS=-Xmx1g /usr/bin/time -f "%e %M" -o "$out/time.txt" ./nunac "$@" --topo nuna-4die -o "$out/o" >/dev/null 2>&1 \
    || { echo "$name failed (exit $?)" >&2; return 0; }
  echo "$name $(cat "$out/time.txt")"
}
for n in 16 64 128 256; do
  for _ in 1 2 3; do run "alltoall-$n" examples/alltoall-direct.msccl -D ranks=$n --size $((n * 4096)); done
done
for f in ../shared/corpus/msccl-xml/*.xml ../shared/corpus/mscclpp-json/*.json; do
  [ -f "$f" ] && run "corpus:$(basename "$f")" "$f"
done
