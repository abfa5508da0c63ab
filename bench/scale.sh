#!/usr/bin/env bash
# Scaling: the all-to-all (examples/alltoall-direct.msccl) on nuna-4die at 256, 512 and 1,024 ranks
# (one 4 KiB page per chunk: --size ranks x 4096), compiled four ways: the default compile (the
# placement search included), --per-rank, --compact and --nar off, once each. Per stage, the
# --timings lines (topology, parse = the DSL interpreter and threadblock assignment, check,
# access analysis, logical allocation, placement search, realisation, emit = emit + baseline +
# write); wall and peak RSS of the whole command (/usr/bin/time), and the load average before
# each run. Limits raised for 1,024 ranks (2,094,080 steps, 2,097,152 pages). Prints a markdown
# table; with --write, replaces the table of the "Scaling" section of docs/performance.md (the
# section before "Output sizes", whose "### What limits each stage" notes it keeps, as
# bench/run.sh and bench/output-sizes.sh keep the whole section).
#   bench/scale.sh [--write] [RANKS ...]          (default: 256 512 1024)
#   NUNAC_BEFORE=DIR bench/scale.sh ...           also times a built checkout DIR of an earlier
#                                                 commit, in the same run, each run beside its twin
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
write=0
[ "${1:-}" = --write ] && { write=1; shift; }
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(256 512 1024)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
sides=("$root")
[ -n "${NUNAC_BEFORE:-}" ] && sides=("$NUNAC_BEFORE" "$root")
for s in "${sides[@]}"; do (cd "$s" && ./nunac examples/alltoall-direct.msccl --topo nuna-4die -D ranks=4 -o "$out/warm" >/dev/null 2>&1); done
stage() { awk -v s="$1" 'index($0, s) == 1 { printf "%.2f", $(NF-1) / 1000 }' "$out/err.txt"; }
rows=""
for n in "${ranks[@]}"; do
  for mode in default per-rank compact nar-off; do
    for s in "${sides[@]}"; do
      args=(examples/alltoall-direct.msccl --topo nuna-4die -D ranks="$n" --size $((n * 4096)) --limit steps=4000000 --limit pages=4000000 --quiet --timings -o "$out/o")
      case "$mode" in per-rank) args+=(--per-rank) ;; compact) args+=(--compact) ;; nar-off) args+=(--nar off) ;; esac
      rm -rf "$out/o"
      load="$(cut -d' ' -f1 /proc/loadavg)"
      (cd "$s" && /usr/bin/time -f "%e %M" -o "$out/time.txt" ./nunac "${args[@]}" >/dev/null 2>"$out/err.txt") \
        || { cat "$out/err.txt" >&2; exit 1; }
      read -r wall rss < "$out/time.txt"
      side=after
      [ ${#sides[@]} -gt 1 ] && [ "$s" = "${sides[0]}" ] && side="before ($(git -C "$s" rev-parse --short HEAD 2>/dev/null || basename "$s"))"
      [ ${#sides[@]} -eq 1 ] && side="$(git rev-parse --short HEAD)"
      row="| $n | $mode | $side | $(stage parse) | $(stage check) | $(stage access-analysis) | $(stage logical-allocation) | $(stage placement-search) | $(stage realisation) | $(stage 'emit + baseline + write') | $wall | $((rss / 1024)) | $load |"
      rows+="$row"$'\n'
      echo "$row" >&2
    done
  done
done
section="## Scaling

\`bench/scale.sh\` on $(nproc) cores: \`./nunac examples/alltoall-direct.msccl --topo nuna-4die -D ranks=N
--size N×4096 --limit steps=4000000 --limit pages=4000000\`, the default compile (search included) and with \`--per-rank\`,
\`--compact\` or \`--nar off\`; one run each. Stage times (s) are the \`--timings\` lines: parse is the
DSL interpreter and threadblock assignment (with the IR verifier), emit is \`emit + baseline +
write\`; wall and peak RSS are the whole command's, and load is the 1-minute load average when
the run started (other work on the machine stretches wall time, not the work done).

| ranks | compile | build | parse | check | access | logical alloc | search | realise | emit | wall s | peak RSS MiB | load |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
$rows"
if [ "$write" = 1 ]; then
  doc=docs/performance.md
  before="$(awk '/^## Scaling$/ || /^## Output sizes$/ { exit } { print }' "$doc")"
  after="$(awk 'f || /^### What limits each stage$/ || /^## Output sizes$/ { f = 1; print }' "$doc")"
  printf '%s\n\n%s\n\n%s\n' "$before" "$section" "$after" > "$doc.tmp"
  mv "$doc.tmp" "$doc"
fi
printf '%s' "$section"
