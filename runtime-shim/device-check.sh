#!/usr/bin/env bash
# Device check: on a machine with a GPU, builds nunac and the runtime, runs every example at 8
# ranks (loopback on one GPU, devices=1, unless NUNART_OPTIONS sets devices=N) under each
# placement policy, and prints one table: placement fidelity, data check, and the median launch
# time of pinned vs plain launches.
#
# Usage: runtime-shim/device-check.sh [--launches N] [--backend cuda|hip]
# Environment: NUNAC_TOPO (topology name or file matching the GPU; guessed from its name),
#              NUNART_OPTIONS (extra runtime options). HIP needs cus= and dies=; unless given,
#              cus and arch come from rocminfo's first GPU agent and dies from the topology.
# Exit codes: 0 every row verified; 1 a row failed; 2 the build failed; 3 no GPU found
#             (nothing was run); 4 the GPU has no matching topology (set NUNAC_TOPO).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launches=1000
backend=""
while [ $# -gt 0 ]; do
  case "$1" in
    --launches) launches="$2"; shift 2 ;;
    --backend) backend="$2"; shift 2 ;;
    *) echo "usage: $0 [--launches N] [--backend cuda|hip]" >&2; exit 2 ;;
  esac
done

gpu_name=""
if [ -z "$backend" ] || [ "$backend" = cuda ]; then
  if command -v nvidia-smi >/dev/null 2>&1 && gpu_name="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" && [ -n "$gpu_name" ]; then
    backend=cuda
  fi
fi
if [ -z "$gpu_name" ] && { [ -z "$backend" ] || [ "$backend" = hip ]; }; then
  if [ -e /dev/kfd ] && command -v rocminfo >/dev/null 2>&1; then
    gpu_name="$(rocminfo 2>/dev/null | awk -F: '/Marketing Name/ {gsub(/^ +/, "", $2); if ($2 ~ /MI|Instinct|Radeon/) {print $2; exit}}')"
    [ -n "$gpu_name" ] && backend=hip
  fi
fi
if [ -z "$gpu_name" ]; then
  echo "device-check: no GPU found (no NVIDIA driver answering nvidia-smi, no /dev/kfd with rocminfo); nothing was run"
  exit 3
fi

topo="${NUNAC_TOPO:-}"
if [ -z "$topo" ]; then
  case "$gpu_name" in
    *B200*) topo=b200 ;;
    *MI300X*) topo=mi300x ;;
    *MI355X*|*MI350X*) topo=mi355x ;;
    *MI250X*) topo=mi250x ;;
  esac
fi
if [ -z "$topo" ]; then
  echo "device-check: found '$gpu_name' ($backend), but no bundled topology matches it; set NUNAC_TOPO=FILE"
  exit 4
fi

hip_arch="" hip_cus=""
if [ "$backend" = hip ]; then
  # The first GPU agent's ISA name and CU count (CPU agents come first and have no gfx name).
  read -r hip_arch hip_cus < <(rocminfo 2>/dev/null | awk '/^ *Name: *gfx/ && !a {a = $2} a && /Compute Unit:/ {print a, $3; exit}') || true
fi

echo "device-check: $gpu_name via $backend, topology $topo, $launches launches per median"
if [ "$backend" = hip ]; then
  echo "device-check: HIP options unless NUNART_OPTIONS sets them: arch ${hip_arch:-(hipRTC's default)} and ${hip_cus:-the topology's} CUs from rocminfo, dies from the topology"
fi
log="$(mktemp)"
if ! (cd "$root" && ./mvnw -q -B -DskipTests package -pl compiler/main -am) >"$log" 2>&1; then
  cat "$log" >&2
  echo "device-check: build failed" >&2
  exit 2
fi
run="$root/runtime-shim/target/native/nunart-run"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
printf '%-26s %-9s %-10s %-10s %-12s %-12s\n' example policy fidelity data pinned-us plain-us
for plan in "$root"/examples/*.msccl; do
  for policy in ua nap nap+nar; do
    name="$(basename "$plan" .msccl)"
    out="$work/$name-$policy"
    if ! "$root/nunac" "$plan" --topo "$topo" -D ranks=8 --policy "$policy" --emit launch -o "$out" >/dev/null 2>"$out.err"; then
      printf '%-26s %-9s %s\n' "$name" "$policy" "compile failed: $(head -1 "$out.err")"; status=1; continue
    fi
    opts="${NUNART_OPTIONS:-}"
    [[ " $opts" == *" devices="* ]] || opts="$opts devices=1"
    if [ "$backend" = hip ]; then
      [[ " $opts" == *" cus="* ]] || opts="$opts cus=${hip_cus:-$(sed -n 's/^device .* cus=\([0-9]*\).*/\1/p' "$out/launch.txt")}"
      [[ " $opts" == *" dies="* ]] || opts="$opts dies=$(sed -n 's/^device .* dies=\([0-9]*\).*/\1/p' "$out/launch.txt")"
      [[ " $opts" == *" arch="* || -z "$hip_arch" ]] || opts="$opts arch=$hip_arch"
    fi
    rep="$(timeout 120 "$run" "$out/launch.txt" --backend "$backend" --options "$opts" --time "$launches" 2>&1)"
    rc=$?
    fid="$(sed -n 's/^placement-fidelity: \([^ ]*\).*/\1/p' <<<"$rep")"
    data="$(sed -n 's/^data-check: \([^ ]*\).*/\1/p' <<<"$rep")"
    pinned="$(sed -n 's/^median-launch-us: pinned \([^ ]*\) plain.*/\1/p' <<<"$rep")"
    plain="$(sed -n 's/^median-launch-us: .* plain \([^ ]*\) .*/\1/p' <<<"$rep")"
    [ $rc -eq 0 ] || { status=1; data="${data:-error}"; }
    printf '%-26s %-9s %-10s %-10s %-12s %-12s\n' "$name" "$policy" "${fid:--}" "${data:--}" "${pinned:--}" "${plain:--}"
    [ $rc -eq 0 ] || sed -n 's/^error: /    error: /p' <<<"$rep"
  done
done
exit $status
