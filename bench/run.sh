#!/usr/bin/env bash
# Compile-speed benchmarks (issue targets in docs/performance.md): builds the JMH module, runs
# CompileBenchmark with the GC profiler, times the ./nunac command itself (bench/wall.sh), and rewrites
# docs/performance.md with the table.
#   bench/run.sh            all inputs (about a quarter of an hour on 2 cores)
#   bench/run.sh quick      fewer iterations
#   NUNAC_BEFORE=DIR bench/run.sh   also times a built checkout of an earlier commit (DIR, beside
#                           this one so that ../shared/corpus is the same) for a before/after table
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./mvnw -q -B -Pbench -DskipTests package -pl bench -am
./mvnw -q -B -Pbench -pl bench dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null
# The reactor's fresh jars, not older snapshots of the local repository.
cp="bench/target/classes:compiler/main/target/nunac.jar:$(tr ':' '\n' < bench/target/cp.txt | grep -v '/dev/nunac/' | paste -sd: -)"
for j in compiler/main/target/lib/nunac-*.jar; do cp="$cp:$j"; done
iters=()
[ "${1:-}" = quick ] && iters=(-wi 1 -i 2)
java -cp "$cp" org.openjdk.jmh.Main CompileBenchmark "${iters[@]}" -prof gc -rf json -rff bench/target/compile.json
bench/wall.sh > bench/target/wall.txt
before=()
if [ -n "${NUNAC_BEFORE:-}" ]; then
  bench/wall.sh "$NUNAC_BEFORE" > bench/target/wall-before.txt
  before=("$(git -C "$NUNAC_BEFORE" rev-parse --short HEAD)" bench/target/wall-before.txt)
fi
java -cp "$cp" dev.nunac.bench.PerformanceTable bench/target/compile.json bench/target/wall.txt docs/performance.md "${before[@]}"
cat docs/performance.md
