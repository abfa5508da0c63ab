#!/usr/bin/env bash
# Output sizes: the all-to-all (examples/alltoall-direct.msccl) at 256 and 512 ranks on nuna-4die,
# --nar off, written three ways: whole-plan placement.json and placement.h as by default
# (version 2), the same with --compact (version 3), and --per-rank (every rank's compact files
# and index.json). Sizes are du -cb of the files; "emit" is the --timings line "emit + baseline +
# write" (rendering and writing the outputs, with the UA baseline the search reports against).
# Rewrites the "Output sizes" section at the end of docs/performance.md (bench/run.sh keeps it).
#   bench/output-sizes.sh [RANKS ...]     (default: 256 512)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(256 512)
./nunac examples/alltoall-direct.msccl --topo nuna-4die -D ranks=4 -o "$out/warm" >/dev/null 2>&1
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
rows=""
for n in "${ranks[@]}"; do
  for mode in default compact per-rank; do
    args=(examples/alltoall-direct.msccl --topo nuna-4die --nar off -D ranks="$n" --limit steps=2000000 --quiet --timings -o "$out/$mode-$n")
    [ "$mode" = default ] || args+=("--$mode")
    /usr/bin/time -f "%e %M" -o "$out/time.txt" ./nunac "${args[@]}" >/dev/null 2>"$out/err.txt" || { cat "$out/err.txt" >&2; exit 1; }
    emit="$(awk '/^emit \+ baseline \+ write/ { printf "%.1f", $(NF-1) / 1000 }' "$out/err.txt")"
    read -r wall rss < "$out/time.txt"
    d="$out/$mode-$n"
    if [ "$mode" = per-rank ]; then
      files=$(find "$d" -name 'rank-*' | wc -l)
      total=$(du -cb "$d"/rank-* "$d/index.json" | tail -1 | cut -f1)
      json=$(du -cb "$d"/rank-*.placement.json | tail -1 | cut -f1)
      header=$(du -cb "$d"/rank-*.placement.h | tail -1 | cut -f1)
      what="per-rank ($files files + index.json)"
    else
      json=$(du -b "$d/placement.json" | cut -f1)
      header=$(du -b "$d/placement.h" | cut -f1)
      total=$((json + header))
      what="$mode"
    fi
    rows+="| $n | $what | $(mb "$json") | $(mb "$header") | $(mb "$total") | $emit | $wall | $((rss / 1024)) |"$'\n'
    echo "$n $mode json=$json header=$header total=$total emit=${emit}s wall=${wall}s rss=${rss}KiB" >&2
  done
done
section="## Output sizes

\`bench/output-sizes.sh\` on $(nproc) cores: \`./nunac examples/alltoall-direct.msccl --topo nuna-4die --nar off
-D ranks=N --limit steps=2000000\` (NAR off keeps the table about outputs: the default search adds
about 4 s at 512 ranks, see "Scaling" above; 512 ranks
have 523,776 steps (261,632 transfers, each a send and a receive), past the default limit of 250,000), whole-plan outputs by
default and with \`--compact\`, and \`--per-rank\`. MB are 10^6 bytes of \`du -cb\` over the files
(per-rank: every \`rank-*\` file and \`index.json\`); emit is the \`--timings\` line \`emit +
baseline + write\`; wall and peak RSS are the whole command's.

| ranks | outputs | placement.json MB | placement.h MB | total MB | emit s | wall s | peak RSS MiB |
|---|---|---|---|---|---|---|---|
$rows"
doc=docs/performance.md
keep="$(awk '/^## Output sizes$/ { exit } { print }' "$doc")"
printf '%s\n\n%s' "$keep" "$section" > "$doc.tmp"
mv "$doc.tmp" "$doc"
printf '%s' "$section"
