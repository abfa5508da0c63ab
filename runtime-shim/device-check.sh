#!/usr/bin/env bash
# Device check in two halves, so that a GPU machine needs neither a JDK nor a network:
#
#   device-check.sh --prepare DIR [--topo NAME,...]  here, with the JDK: compiles every example at
#       8 ranks under ua, nap and nap+nar for each topology (default h200,b200: H100, H200 and
#       B200 machines) and writes the launch tables and a table of empty steps (dispatcher
#       overhead) per topology, the runtime's sources, a prebuilt runtime when there is one, and
#       this script into DIR.
#   device-check.sh --run DIR [--out OUT]            there, with CMake and a C compiler (or the
#       prebuilt runtime) and the GPU: builds the runtime, prints the GPU, driver, CUDA and NVRTC
#       versions, runs the latency probe over the whole device memory (prints how many bytes
#       its addresses spanned and what fraction of the memory; writes OUT/TOPO-measured.json, a
#       --topo-override fragment), the empty-step overhead and every table of the topology the GPU's name
#       matches (H100 and H200: h200, B200: b200), one row under compute-sanitizer
#       racecheck and synccheck when it is on the PATH, and prints one table. Everything goes
#       under OUT (default DIR/out). No Java; Python only helps to find the NVRTC wheel.
#   device-check.sh [--launches N]                   both on one machine (a temporary DIR).
#   device-check.sh --find-nvrtc                     only says where NVRTC and its builtins
#       library are found (exit 0) or that none is (exit 1).
#
# Options: --launches N (timed launches per median, default 200, at least 200 for the record),
#          --backend cuda|hip, --budget SECONDS (the whole run, default 280), --row-timeout S
#          (each row, default 60), --build cmake|cc|prebuilt (how the runtime is had: default
#          CMake, else the C compiler alone, else DIR/prebuilt; --prebuilt is --build prebuilt).
# Environment: NUNAC_COMMAND (how --prepare runs nunac; default the checkout's ./nunac),
#          NUNART_OPTIONS (extra runtime options), NUNART_NVRTC_LIBRARY (one NVRTC file), and the
#          runtime's library overrides (docs/runtime.md) which also point it at fake drivers;
#          NUNART_SMI_ID (which GPU nvidia-smi samples the SM clock of: an index, UUID or PCI bus
#          id; default the first of CUDA_VISIBLE_DEVICES, else 0).
# Exit codes: 0 every row verified with fidelity 1.000; 1 a row failed (fidelity below 1.000,
#          a data error, an error, a timeout, or rows left out by the budget); 2 the prepare or
#          the build failed; 3 no GPU found (nothing was run); 4 the GPU does not match the
#          prepared topology (by name and SM or CU count).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode="" dir="" out="" topo="${NUNAC_TOPO:-h200,b200}" launches=200 backend="" budget=280 row_timeout=60 build=""
usage() { echo "usage: $0 --prepare DIR [--topo NAME,...] | --run DIR [--out OUT] [--backend cuda|hip] [--launches N] [--budget S] [--row-timeout S] [--build cmake|cc|prebuilt] | [--launches N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare|--run) [ $# -ge 2 ] || usage; mode="${1#--}"; dir="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
    --topo) [ $# -ge 2 ] || usage; topo="$2"; shift 2 ;;
    --launches) [ $# -ge 2 ] || usage; launches="$2"; shift 2 ;;
    --backend) [ $# -ge 2 ] || usage; backend="$2"; shift 2 ;;
    --budget) [ $# -ge 2 ] || usage; budget="$2"; shift 2 ;;
    --row-timeout) [ $# -ge 2 ] || usage; row_timeout="$2"; shift 2 ;;
    --build) [ $# -ge 2 ] || usage; build="$2"; shift 2 ;;
    --prebuilt) build=prebuilt; shift ;;
    --find-nvrtc) mode=find-nvrtc; shift ;;
    *) usage ;;
  esac
done
say() { echo "device-check: $*"; }
policies=(ua nap nap+nar)

# ---------------------------------------------------------------- prepare (JDK side)

# The table of empty steps: one rank, one threadblock of one nop per SM, planned on that SM, so
# pinned and plain launches differ only by the dispatcher. The device line is the topology's.
empty_table() {
  local device="$1"
  awk -v dev="$device" 'BEGIN {
    n = split(dev, f, " "); for (i = 2; i <= n; i++) { split(f[i], kv, "="); d[kv[1]] = kv[2] }
    cus = d["cus"]; dies = d["dies"]; words = d["mask_words"]
    print "nunart-launch 1"
    print "plan name=empty-steps collective=custom ranks=1 chunk_factor=1 inplace=0 root=0 protocol=Simple"
    print dev
    print "placement policy=ua chunk_bytes=4 page_bytes=4096"
    print "rank id=0 storages=1 threadblocks=" cus " grid=" cus " streams=0"
    print "storage rank=0 id=0 name=buf chunks=1 pages=1 stacks=0"
    print "view rank=0 buffer=input storage=0 offset=0 chunks=1"
    print "view rank=0 buffer=output storage=0 offset=0 chunks=1"
    slots = ""
    for (c = 0; c < cus; c++) {
      mask = ""
      for (h = words * 8 - 1; h >= 0; h--) mask = mask (int(c / 4) == h ? sprintf("%x", 2 ^ (c % 4)) : "0")
      printf "tb rank=0 id=%d cu=%d die=%d slot=%d domain=0 group=0 send=-1 recv=-1 channel=0 mask=0x%s steps=1\n", c, c, int(c * dies / cus), c, mask
      printf "step rank=0 tb=%d id=0 op=nop src=- dst=- peer=-1 deps=- from=- to=-\n", c
      slots = slots (c ? "," : "") c
    }
    print "grid rank=0 slots=" slots
    print "end"
  }'
}

# The runtime's sources (and the fake drivers, which CI runs the check on), without Java.
copy_runtime() {
  local to="$1/runtime"
  mkdir -p "$to/src/test/native" || return 1
  cp -r "$here/CMakeLists.txt" "$here/cmake" "$here/include" "$here/tools" "$to/" &&
    cp "$here"/src/*.c "$here"/src/*.h "$here"/src/*.def "$to/src/" && cp -r "$here/src/kernels" "$to/src/" &&
    cp "$here"/src/test/native/mock* "$to/src/test/native/" || return 1
  # A runtime built here, for a machine without cmake or a C compiler (--prebuilt). Its
  # RUNPATH must be $ORIGIN alone: a path of this machine would not exist there.
  local b="$here/target/native" rp
  if [ -x "$b/nunart-run" ] && [ -f "$b/libnunart.so" ]; then
    rp="$(command -v readelf >/dev/null 2>&1 && readelf -d "$b/nunart-run" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
    if [ -n "${rp// /}" ] && [ "$rp" != '$ORIGIN ' ]; then
      say "not carrying the prebuilt runtime: nunart-run's RUNPATH is '${rp% }', not \$ORIGIN alone (rebuild it)" >&2
    else
      mkdir -p "$1/prebuilt" && cp "$b/nunart-run" "$b/libnunart.so" "$b"/libnunart-mock-*.so "$1/prebuilt/"
    fi
  fi
}

# One topology's tables: every example under every policy, and the empty-step table.
prepare_topology() {
  local t="$1" first="" n=0
  mkdir -p "$dir/$t/tables" || { say "cannot create $dir/$t"; exit 2; }
  for plan in "$root"/examples/*.msccl; do
    for policy in "${policies[@]}"; do
      local name tmp
      name="$(basename "$plan" .msccl)-$policy"
      tmp="$dir/$t/tables/.$name"
      if ! "${nunac[@]}" "$plan" --topo "$t" -D ranks=8 --policy "$policy" --emit launch -o "$tmp" >/dev/null 2>"$tmp.err"; then
        say "compiling $name for $t failed: $(head -1 "$tmp.err")" >&2; exit 2
      fi
      mv "$tmp/launch.txt" "$dir/$t/tables/$name.txt" && rm -rf "$tmp" "$tmp.err"
      first="${first:-$dir/$t/tables/$name.txt}"
      n=$((n + 1))
    done
  done
  [ -n "$first" ] || { say "no examples found under $root/examples" >&2; exit 2; }
  empty_table "$(grep -m1 '^device ' "$first")" >"$dir/$t/empty-steps.txt"
  say "prepared $n launch tables for $t and its empty-step table"
}

prepare() {
  root="$(cd "$here/.." && pwd)"
  read -r -a nunac <<<"${NUNAC_COMMAND:-$root/nunac}"
  mkdir -p "$dir" || { say "cannot create $dir"; exit 2; }
  local t
  for t in ${topo//,/ }; do prepare_topology "$t"; done
  copy_runtime "$dir" || { say "copying the runtime's sources into $dir failed" >&2; exit 2; }
  cp "$here/device-check.sh" "$dir/device-check.sh"
  {
    echo "topologies=$topo"
    echo "prepared=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  } >"$dir/manifest"
  say "prepared $dir: the runtime's sources, this script and a manifest"
  say "on the GPU machine: bash $(basename "$dir")/device-check.sh --run $(basename "$dir")"
}

# ---------------------------------------------------------------- run (GPU side, no Java)

left() { echo $((budget - SECONDS)); }

# A command under a timeout of min(its own, what is left of the budget); 124 when cut.
bounded() {
  local limit="$1" rest; shift
  rest="$(left)"
  [ "$rest" -lt "$limit" ] && limit="$rest"
  [ "$limit" -gt 0 ] || return 124
  timeout --kill-after=5 "$limit" "$@"
}

# Which backend: an explicit one, a loader override (fake drivers), or the device nodes.
find_backend() {
  [ -n "$backend" ] && return 0
  if [ -n "${NUNART_CUDA_LIBRARY:-}" ] || { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }; then backend=cuda
  elif [ -n "${NUNART_HIP_LIBRARY:-}" ] || [ -e /dev/kfd ]; then backend=hip
  fi
  [ -n "$backend" ]
}

# Folders where NVRTC may be, best first. The pip wheels: CUDA 13's nvidia-cuda-nvrtc puts
# libnvrtc.so.13 and libnvrtc-builtins.so.13.* into site-packages/nvidia/cu13/lib, CUDA 12's
# and 11's nvidia-cuda-nvrtc-cu12/-cu11 into site-packages/nvidia/cuda_nvrtc/lib; found through
# python3 (the nvidia package's folders, site-packages and the user's) and the usual
# site-packages folders. Then a toolkit: CUDA_HOME, CUDA_PATH and /usr/local/cuda* (lib64, lib,
# targets/*/lib). Then the loader's cache (ldconfig -p).
nvrtc_dirs() {
  local roots=() d
  if command -v python3 >/dev/null 2>&1; then
    while IFS= read -r d; do [ -n "$d" ] && roots+=("$d"); done < <(python3 -c '
import os, site
roots = []
try:
    import nvidia
    roots += list(nvidia.__path__)
except Exception:
    pass
try:
    roots += [os.path.join(p, "nvidia") for p in site.getsitepackages() + [site.getusersitepackages()]]
except Exception:
    pass
print("\n".join(roots))' 2>/dev/null)
  fi
  for d in "${VIRTUAL_ENV:-/nonexistent}"/lib/python3*/site-packages "${HOME:-/nonexistent}"/.local/lib/python3*/site-packages \
           /usr/local/lib/python3*/{site,dist}-packages /usr/lib/python3*/{site,dist}-packages; do
    roots+=("$d/nvidia")
  done
  for d in "${roots[@]}"; do printf '%s\n' "$d"/cu[0-9]*/lib "$d/cuda_nvrtc/lib"; done
  for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda /usr/local/cuda-*; do
    [ -n "$d" ] && printf '%s\n' "$d/lib64" "$d/lib" "$d"/targets/*/lib
  done
  { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | sed -n 's/^[[:space:]]*libnvrtc\.so[^ ]* .*=> \(.*\)\/[^/]*$/\1/p'
}

# Every folder that holds NVRTC goes on LD_LIBRARY_PATH, in that order, so that the runtime's
# own search (newest major the driver supports first) finds it, and NVRTC its builtins library
# beside it (the CUDA 13 wheel's NVRTC does not find it by itself). 0 when one was found.
find_nvrtc() {
  local d seen="" found=0 add="" builtins
  [ -n "${NUNART_NVRTC_LIBRARY:-}" ] && say "NUNART_NVRTC_LIBRARY names the NVRTC file: $NUNART_NVRTC_LIBRARY"
  while IFS= read -r d; do
    [ -d "$d" ] && compgen -G "$d/libnvrtc.so*" >/dev/null || continue
    case ":$seen:" in *":$d:"*) continue ;; esac
    seen="$seen:$d"
    found=1
    builtins="$(cd "$d" && ls libnvrtc-builtins.so* 2>/dev/null | tr '\n' ' ')"
    say "NVRTC found in $d: $(cd "$d" && ls libnvrtc.so* | tr '\n' ' ')builtins: ${builtins:-none beside it (NVRTC cannot compile without it) }"
    add="${add:+$add:}$d"
  done < <(nvrtc_dirs)
  if [ "$found" = 1 ]; then
    export LD_LIBRARY_PATH="$add${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    say "LD_LIBRARY_PATH for the runtime starts with $add"
    return 0
  fi
  say "no NVRTC found in a wheel folder (site-packages/nvidia/cu13/lib, site-packages/nvidia/cuda_nvrtc/lib), a toolkit (CUDA_HOME, CUDA_PATH, /usr/local/cuda*) or the loader's cache; the runtime searches the loader's path (NUNART_NVRTC_LIBRARY names a file)"
  return 1
}

# The runtime with CMake, as the project builds it.
build_cmake() {
  local b="$out/build"
  bounded 180 cmake -S "$dir/runtime" -B "$b" -DCMAKE_BUILD_TYPE=Release -DNUNART_BUILD_MOCKS=ON >"$out/build.log" 2>&1 &&
    bounded 180 cmake --build "$b" -j "$(nproc 2>/dev/null || echo 2)" >>"$out/build.log" 2>&1
}

# The same with the C compiler alone (an old or missing CMake): the kernel source embedded as
# embed.cmake does, the library, nunart-run and the fake drivers.
build_cc() {
  local src="$dir/runtime" b="$out/build" cc="${CC:-cc}" m="$dir/runtime/src/test/native"
  command -v "$cc" >/dev/null 2>&1 || cc=gcc
  mkdir -p "$b" && {
    echo "/* Generated from src/kernels/executor.cu. */"
    printf 'const char nr_kernel_source[] =\n'
    awk '{ gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "\"%s\\n\"\n", $0 } END { print ";" }' "$src/src/kernels/executor.cu"
  } >"$b/nunart_kernel.c" || return 1
  local flags=(-O2 -std=c11 -D_GNU_SOURCE -DNUNART_VERSION=\"device-check\" -fPIC -I "$src/include" -I "$src/src")
  {
    bounded 180 "$cc" "${flags[@]}" -shared -o "$b/libnunart.so" "$src"/src/{table,nunart,backend_host,gpu_exec,backend_cuda,backend_hip}.c \
      "$b/nunart_kernel.c" -ldl -lpthread &&
    bounded 60 "$cc" "${flags[@]}" -o "$b/nunart-run" "$src/tools/nunart_run.c" -L "$b" -lnunart -Wl,-rpath,'$ORIGIN' &&
    bounded 60 "$cc" "${flags[@]}" -shared -o "$b/libnunart-mock-cuda.so" "$m/mock_cuda.c" "$m/mock_common.c" &&
    bounded 60 "$cc" "${flags[@]}" -shared -o "$b/libnunart-mock-nvrtc.so" "$m/mock_rtc.c" "$m/mock_common.c" &&
    bounded 60 "$cc" "${flags[@]}" -shared -o "$b/libnunart-mock-hip.so" "$m/mock_hip.c" "$m/mock_common.c" &&
    bounded 60 "$cc" "${flags[@]}" -DMOCK_HIPRTC -shared -o "$b/libnunart-mock-hiprtc.so" "$m/mock_rtc.c" "$m/mock_common.c"
  } >"$out/build.log" 2>&1
}

# The prebuilt runtime that --prepare carried.
use_prebuilt() {
  [ -x "$dir/prebuilt/nunart-run" ] || { say "no prebuilt runtime in $dir/prebuilt (prepare on a machine that built it)" >&2; return 1; }
  run="$dir/prebuilt/nunart-run"
  say "using the prebuilt runtime in $dir/prebuilt"
}

# --build picks one way; by default CMake, else (missing, too old, failing) the C compiler
# alone, else the prebuilt runtime, each fallback said.
build_runtime() {
  run="$out/build/nunart-run"
  local cc="${CC:-cc}"
  case "$build" in
    cmake) build_cmake && { say "runtime built with CMake in $out/build"; return 0; } ;;
    cc) build_cc && { say "runtime built with $cc alone in $out/build"; return 0; } ;;
    prebuilt) use_prebuilt && return 0; exit 2 ;;
    "")
      if command -v cmake >/dev/null 2>&1 && build_cmake; then say "runtime built with CMake in $out/build"; return 0; fi
      command -v cmake >/dev/null 2>&1 && say "the CMake build failed (log: $out/build.log); trying $cc alone"
      if { command -v "$cc" >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; } && build_cc; then say "runtime built with $cc alone in $out/build"; return 0; fi
      use_prebuilt && return 0 ;;
    *) usage ;;
  esac
  cat "$out/build.log" >&2 2>/dev/null; say "building the runtime${build:+ ($build)} failed (log: $out/build.log)" >&2; exit 2
}

# The topology the GPU's name says: H200, and the H100 SXM5 part (named "H100 SXM5 ..." or
# "H100 80GB HBM3"), which has the H200's die with 132 SMs enabled; not H100 PCIe (114 SMs)
# or NVL. check_topology then also compares the SM or CU count with the topology's.
topology_of() {
  case "$1" in
    *H200*|*H100*SXM*|*"H100 80GB HBM3"*) echo h200 ;; *B200*) echo b200 ;;
    *MI300X*) echo mi300x ;; *MI355X*|*MI350X*) echo mi355x ;; *MI250X*) echo mi250x ;;
  esac
}

# GPU, driver, CUDA and NVRTC versions, its SM (CU) count, and the SM clock where nvidia-smi
# answers.
describe_gpu() {
  bounded 60 "$run" --info --backend "$backend" ${NUNART_OPTIONS:+--options "$NUNART_OPTIONS"} >"$out/info.txt" 2>&1
  local rc=$?
  sed 's/^/device-check: /' "$out/info.txt"
  [ $rc -eq 0 ] || { say "the $backend backend cannot open the device (see $out/info.txt)"; exit 3; }
  gpu="$(sed -n 's/^device: \(.*\) (cc .*/\1/p; s/^device: \(.*\) (gfx[0-9a-f]*, .*/\1/p; s/^device: \(.*\) ([0-9]* CUs.*/\1/p' "$out/info.txt" | head -1)"
  units="$(sed -n 's/^device: .* (cc [0-9.]*, \([0-9]*\) SMs.*/\1/p; s/^device: .* (gfx[0-9a-f]*, \([0-9]*\) CUs.*/\1/p; s/^device: .* (\([0-9]*\) CUs.*/\1/p' "$out/info.txt" | head -1)"
  clocks
}

# Which GPU nvidia-smi reads: NUNART_SMI_ID, else the first of CUDA_VISIBLE_DEVICES, else 0.
smi_id() {
  local v="${NUNART_SMI_ID:-${CUDA_VISIBLE_DEVICES:-0}}"
  echo "${v%%,*}"
}

clocks() {
  if command -v nvidia-smi >/dev/null 2>&1; then
    say "nvidia-smi: $(nvidia-smi -i "$(smi_id)" --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)" | tee -a "$out/clocks.txt"
  fi
}

# The SM clock during a row: nvidia-smi samples it every 100 ms in the background while the row
# runs (sampler FILE starts, sampled FILE REPORT stops it); the samples from the first warm-up
# launch to 200 ms after the last timed launch (the report's timed-window-ns) give min-max/n.
sampler() {
  sampler_pid=""
  command -v nvidia-smi >/dev/null 2>&1 || return 0
  nvidia-smi -i "$(smi_id)" --query-gpu=timestamp,clocks.sm --format=csv,noheader,nounits -lms 100 >"$1" 2>/dev/null &
  sampler_pid=$!
}

# The local time of nvidia-smi's timestamps (YYYY/MM/DD HH:MM:SS.mmm) for ns since the epoch.
smi_time() { echo "$(date -d "@$(($1 / 1000000000))" '+%Y/%m/%d %H:%M:%S').$(printf '%03d' $(($1 / 1000000 % 1000)))"; }

sampled() {
  local file="$1" rep="$2" w lo hi wait_ns
  [ -n "$sampler_pid" ] || return 0
  w="$(sed -n 's/^timed-window-ns: \([0-9]*\) \([0-9]*\).*/\1 \2/p' "$rep")"
  # The sampler runs on until 250 ms after the last timed launch, so that a sample follows it.
  if [ -n "$w" ]; then
    wait_ns=$((${w#* } + 250000000 - $(date +%s%N)))
    [ "$wait_ns" -gt 0 ] && sleep "$(printf '0.%03d' $((wait_ns / 1000000 % 1000)))"
  fi
  kill "$sampler_pid" 2>/dev/null; wait "$sampler_pid" 2>/dev/null
  [ -n "$w" ] || return 0
  lo="$(smi_time "${w% *}")" hi="$(smi_time $((${w#* } + 200000000)))"
  awk -F', *' -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi && $2 ~ /^[0-9]+$/ { v = $2 + 0; if (!n || v < a) a = v; if (!n || v > b) b = v; n++ }
    END { if (n) printf "%d-%d/%d\n", a, b, n }' "$file"
}

# The GPU's topology must be one the folder was prepared for; its tables are then run.
check_topology() {
  local prepared
  prepared="$(sed -n 's/^topologies=//p' "$dir/manifest")"
  topo="$(topology_of "$gpu")"
  local what="SMs" want
  [ "$backend" = hip ] && what="CUs"
  if [ -z "$topo" ]; then
    say "no bundled topology describes '$gpu' (${units:-an unknown number of} $what): h200 is for the H200 and the H100 SXM5 (132 SMs), b200 for the B200 (148 SMs); an H100 PCIe or NVL is neither; nothing was run"; exit 4
  fi
  if [[ ",$prepared," != *",$topo,"* ]] || [ ! -d "$dir/$topo/tables" ]; then
    say "found '$gpu', whose topology is '$topo', but $dir was prepared for '$prepared' (--prepare DIR --topo NAME)"; exit 4
  fi
  want="$(sed -n 's/^device .* cus=\([0-9]*\).*/\1/p' "$dir/$topo/empty-steps.txt" | head -1)"
  if [ -z "$units" ] || [ "$units" != "$want" ]; then
    say "found '$gpu' with ${units:-an unreported number of} $what, but the $topo topology has ${want:-?}: its tables do not fit this GPU; nothing was run"; exit 4
  fi
  say "topology $topo (from the GPU's name, $units $what as the topology has): $(ls "$dir/$topo/tables" | wc -l) tables"
}

probe() {
  bounded "$row_timeout" "$run" --probe "$out/probe" --backend "$backend" ${NUNART_OPTIONS:+--options "$NUNART_OPTIONS"} >"$out/probe.txt" 2>&1
  local rc=$?
  sed 's/^/device-check: /' "$out/probe.txt"
  if [ $rc -eq 0 ]; then cp "$out/probe.json" "$out/$topo-measured.json"; say "override: $out/$topo-measured.json (nunac --topo $topo --topo-override FILE)"
  else say "latency probe failed (exit $rc)"; status=1; fi
}

# One row (name, table, extra runtime options): fidelity, data, where the blocks ran, and the
# timing; the report is kept.
row() {
  local name="$1" table="$2" rep="$out/rows/$1.txt" opts="${NUNART_OPTIONS:-} ${3:-}"
  [[ " $opts" == *" devices="* ]] || opts="$opts devices=1"
  if [ "$(left)" -le 5 ]; then printf '%-34s %s\n' "$name" "skipped: the run's time budget is spent"; status=1; return; fi
  sampler "$out/rows/$1.clock.csv"
  bounded "$row_timeout" "$run" "$table" --backend "$backend" --options "$opts" --time "$launches" --warmup 20 --require-fidelity >"$rep" 2>&1
  local rc=$? fid data where pin plain mhz
  mhz="$(sampled "$out/rows/$1.clock.csv" "$rep")"
  [ -n "$mhz" ] && echo "sm-clock-mhz: min-max/samples $mhz (nvidia-smi every 100 ms, from the first warm-up launch to 200 ms after the last timed launch)" >>"$rep"
  fid="$(sed -n 's/^placement-fidelity: \([^ ]*\).*/\1/p' "$rep")"
  data="$(sed -n 's/^data-check: \([^ ]*\).*/\1/p' "$rep")"
  where="$(sed -n 's/^cu-readback: [^:]*: \([0-9]*\) distinct [A-Z]*s, highest [^ ]* seen \([-0-9]*\), %nsmid \([0-9]*\);.*/\1 SMs, max \2\/\3/p' "$rep")"
  pin="$(sed -n 's/^launch-us: pinned min \([^ ]*\) median \([^ ]*\) p90 \([^;]*\);.*/\1\/\2\/\3/p' "$rep")"
  plain="$(sed -n 's/^launch-us: .*; plain min \([^ ]*\) median \([^ ]*\) p90 \([^ ]*\) .*/\1\/\2\/\3/p' "$rep")"
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && data="timeout"
  [ $rc -eq 0 ] || status=1
  printf '%-34s %-7s %-8s %-18s %-22s %-22s %s\n' "$name" "${fid:--}" "${data:--}" "${where:--}" "${pin:--}" "${plain:--}" "${mhz:--}"
  [ $rc -eq 0 ] || sed -n 's/^nunart-run: /    /p' "$rep" | head -2
}

# One launch under compute-sanitizer's racecheck and synccheck, where it is installed.
sanitize() {
  local table="$1" tool
  if ! command -v compute-sanitizer >/dev/null 2>&1; then say "compute-sanitizer: not on the PATH, racecheck and synccheck skipped"; return; fi
  for tool in racecheck synccheck; do
    # The tools slow the kernel many times over: a wait budget to match the row's bound.
    bounded 120 compute-sanitizer --tool "$tool" --error-exitcode 9 "$run" "$table" --backend "$backend" --options "${NUNART_OPTIONS:-} devices=1 timeout_ms=100000" \
      >"$out/sanitizer-$tool.txt" 2>&1
    local rc=$?
    say "compute-sanitizer $tool on $(basename "$table" .txt): $( [ $rc -eq 0 ] && echo passed || echo "FAILED (exit $rc)"); $(grep -m1 'ERROR SUMMARY' "$out/sanitizer-$tool.txt" | sed 's/^=* *//')"
    [ $rc -eq 0 ] || status=1
  done
}

run_check() {
  [ -f "$dir/manifest" ] || { say "$dir has no manifest: prepare it first (--prepare DIR)"; exit 2; }
  find_backend || { say "no GPU found (no NVIDIA driver answering nvidia-smi, no /dev/kfd); nothing was run"; exit 3; }
  out="${out:-$dir/out}"
  mkdir -p "$out/rows" || { say "cannot create $out"; exit 2; }
  exec > >(tee "$out/device-check.log") 2>&1
  say "run started $(date -u +%Y-%m-%dT%H:%M:%SZ), budget ${budget} s, ${row_timeout} s per row; java on the PATH: $(command -v java >/dev/null 2>&1 && echo yes || echo no)"
  say "prepared: $(tr '\n' ' ' <"$dir/manifest")"
  build_runtime
  [ "$backend" = cuda ] && find_nvrtc
  describe_gpu
  check_topology
  status=0
  probe
  say "$launches timed launches per figure after 20 warm-up launches; times in microseconds, min/median/p90$([ "$launches" -lt 200 ] && echo "; fewer than 200: not figures for the record")"
  printf '%-34s %-7s %-8s %-18s %-22s %-22s %s\n' row fidelity data "SMs (max %smid/n)" pinned-us plain-us "sm-MHz min-max/n"
  row empty-steps "$dir/$topo/empty-steps.txt"
  # The same with every resident slot filled: whether the hardware gives every SM blocks.
  row empty-steps-full "$dir/$topo/empty-steps.txt" pinned_grid=full
  for table in "$dir/$topo"/tables/*.txt; do row "$(basename "$table" .txt)" "$table"; done
  clocks
  sanitize "$(ls "$dir/$topo"/tables/*-nap+nar.txt | head -1)"
  say "finished in ${SECONDS} s; reports under $out; exit $status"
  exit $status
}

case "$mode" in
  prepare) prepare ;;
  find-nvrtc) find_nvrtc; exit $? ;;
  run) run_check ;;
  "")
    find_backend || { say "no GPU found (no NVIDIA driver answering nvidia-smi, no /dev/kfd); nothing was run"; exit 3; }
    dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT
    (prepare) || exit 2
    (run_check); exit $? ;;
esac
