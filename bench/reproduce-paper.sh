#!/usr/bin/env bash
# Regenerates the paper reproduction on nuna-4die:
#   bench/reproduce-paper.sh          docs/paper-reproduction.md (Figs. 9-15, Fig. 9 at 8 GPUs; minutes)
#   bench/reproduce-paper.sh --full   docs/paper-reproduction-fig9.md (Fig. 9 over 2-64 GPUs and
#                                     100 kB-1 GB, as a sweep; under 5 minutes on two cores)
#   bench/reproduce-paper.sh --search docs/search-acceptance.md (the default compile's search over
#                                     the same grid; about an hour on two cores, 40 minutes with --side-by-side,
#                                     runs its tasks on every core with a 16 GiB heap)
# --timings prints, on stderr, each figure's wall and CPU time and the points it simulated
# (docs/performance.md); --quiet hides the progress line.
# --full runs the Fig. 9 grid as a sweep (bench/sweep-fig9.json into bench/target/fig9-sweep, which
# resumes where it stopped) and reads the figure from its point files. The same sweep runs in
# parts on a cluster's job array (docs/sweep.md): nunac sweep bench/sweep-fig9.json -o DIR
# --shard i/n on each node, then bench/reproduce-paper.sh --full --fig9-from=DIR here.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/nunac" --version >/dev/null # builds the compiler on first use
# The reproduction lives beside the benchmarks, not in the shipped jar: build it when it is
# missing or older than its sources or the compiler.
jar="$root/bench/reproduction/target/nunac-reproduction.jar"
if [ ! -f "$jar" ] || [ "$root/compiler/main/target/nunac.jar" -nt "$jar" ] \
   || [ -n "$(find "$root/bench/reproduction/src" "$root/bench/reproduction/pom.xml" -type f -newer "$jar" -print -quit)" ]; then
  (cd "$root" && ./mvnw -q -B -DskipTests -Dmaven.test.skip=true package -pl bench/reproduction -am) >&2
fi
doc=paper-reproduction
args=("$@")
if [[ "${1:-}" == "--full" ]]; then
  doc=paper-reproduction-fig9
  if [[ " $* " != *" --fig9-from="* ]]; then
    sweep="$root/bench/target/fig9-sweep"
    # a stopped run resumes, but only with the build that started it
    if [ -f "$sweep/sweep.json" ] && [ "$root/compiler/main/target/nunac.jar" -nt "$sweep/sweep.json" ]; then rm -rf "$sweep"; fi
    mkdir -p "$root/bench/target"
    quiet=(); [[ " $* " == *" --quiet "* ]] && quiet=(--quiet)
    # one point per core, largest first; two 1 GB points at once need more than the default heap
    NUNAC_JAVA_OPTS="-XX:MaxRAMPercentage=66 ${NUNAC_JAVA_OPTS:-}" "$root/nunac" sweep "$root/bench/sweep-fig9.json" -o "$sweep" --jobs 0 "${quiet[@]}"
    args+=("--fig9-from=$sweep")
  fi
fi
if [[ "${1:-}" == "--search" ]]; then doc=search-acceptance; args=(--full "${@:2}"); fi
heap=(); [[ " $* " == *" --side-by-side "* ]] && heap=(-Xmx16g)
exec java -XX:+UseSerialGC "${heap[@]}" -cp "$jar:$root/compiler/main/target/nunac.jar" dev.nunac.reproduction.PaperReproduction \
  "$root/bench/$doc.md.in" "$root/docs/$doc.md" "${args[@]}"
