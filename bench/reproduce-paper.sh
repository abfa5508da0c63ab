#!/usr/bin/env bash
# Regenerates docs/paper-reproduction.md from bench/paper-reproduction.md.in on nuna-4die.
#   bench/reproduce-paper.sh          reduced sweep (minutes)
#   bench/reproduce-paper.sh --full   Fig. 9 over 2-64 GPUs and sizes up to 1 GB (long)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/nunac" --version >/dev/null
exec java -XX:+UseSerialGC -cp "$root/compiler/main/target/nunac.jar" dev.nunac.compare.PaperReproduction \
  "$root/bench/paper-reproduction.md.in" "$root/docs/paper-reproduction.md" "$@"
