#!/usr/bin/env bash
# Native tests (src/test/native): builds the runtime, the fake GPU drivers, the C ABI tests and
# the launch-table fuzz in TARGET/native-test and runs them with CTest. Under ASan + UBSan with
# -fno-sanitize-recover (a finding fails) when the C compiler builds and runs such a program;
# otherwise plain, saying why. Called by Maven in the test phase; skipped with -DskipTests,
# -Dmaven.test.skip=true, or when the native library was not built (-Dnunac.native.skip=true,
# no cmake or C compiler: the reason build-native.sh recorded is printed).
# Environment: NUNART_FUZZ_SECONDS (default 30) and NUNART_FUZZ_SEED (default 1) bound and seed
# the fuzz (docs/errors.md).
# Usage: test-native.sh TARGET [SKIP_TESTS] [SKIP_ALL_TESTS]
set -euo pipefail
target="$1" skip="${2:-false}" skip_all="${3:-false}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { echo "nunac-runtime: $*"; }
if [ "$skip" = "true" ] || [ "$skip_all" = "true" ]; then say "native tests skipped (tests are skipped)"; exit 0; fi
unavailable="$target/classes/META-INF/native/unavailable.txt"
if [ -f "$unavailable" ]; then say "native tests skipped: $(cat "$unavailable")"; exit 0; fi

build="$target/native-test"
log="$target/native-test.log"
mkdir -p "$build"
: >"$log"

# Can this compiler build a program under ASan + UBSan, and does it run here? LeakSanitizer
# needs ptrace, which some containers refuse: then the tests run without leak checks.
cc="${CC:-cc}"
command -v "$cc" >/dev/null || cc=gcc
probe="$build/sanitizer-probe"
printf '#include <stdlib.h>\nint main(void) { char *p = malloc(1); free(p); return 0; }\n' >"$probe.c"
# Bounded: an ASan runtime that does not fit the kernel's address-space layout can spin.
run_probe() { if command -v timeout >/dev/null; then ASAN_OPTIONS="$1" timeout 60 "$probe"; else ASAN_OPTIONS="$1" "$probe"; fi; }
sanitize=OFF leaks=1
if "$cc" -fsanitize=address,undefined -fno-sanitize-recover=all "$probe.c" -o "$probe" >>"$log" 2>&1; then
  if run_probe detect_leaks=1 >>"$log" 2>&1; then
    sanitize=ON
  elif run_probe detect_leaks=0 >>"$log" 2>&1; then
    sanitize=ON leaks=0
    say "LeakSanitizer does not run here (see $log): native tests under ASan + UBSan without leak checks"
  else
    say "a program built with -fsanitize=address,undefined does not run here (see $log): native tests run without sanitizers"
  fi
else
  say "$cc cannot build with -fsanitize=address,undefined (see $log): native tests run without sanitizers"
fi

start=$SECONDS
if ! { cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNUNART_SANITIZE="$sanitize" -DNUNART_BUILD_MOCKS=ON \
         -DNUNART_BUILD_TESTS=ON && cmake --build "$build" -j 2; } >>"$log" 2>&1; then
  cat "$log" >&2
  say "native test build failed (log: $log)" >&2
  exit 1
fi
built=$((SECONDS - start))
export ASAN_OPTIONS="detect_leaks=$leaks${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
rm -rf "$build/fuzz-failures"
if ! ctest --test-dir "$build" --output-on-failure; then
  [ -d "$build/fuzz-failures" ] && say "failing fuzz inputs: $build/fuzz-failures" >&2
  say "native tests failed" >&2
  exit 1
fi
# What each test printed last: counts, and the fuzz's inputs and time.
grep -h '^nunart-native-test:\|^nunart-driver-test:\|^nunart-table-fuzz:' "$build/Testing/Temporary/LastTest.log" | sed 's/^/nunac-runtime: /' || true
if [ "$sanitize" = ON ]; then mode="under ASan + UBSan$([ "$leaks" = 1 ] && echo " with leak checks")"; else mode="without sanitizers"; fi
say "native tests passed $mode (build ${built} s, tests $((SECONDS - start - built)) s)"
