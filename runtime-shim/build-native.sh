#!/usr/bin/env bash
# Builds the native runtime with CMake and puts the JNI library into the jar's resources
# under a versioned name. Called by Maven (process-classes). Missing cmake or C compiler, or
# -Dnunac.native.skip=true: writes the reason where the Java loader finds it and succeeds, so
# a Java-only build still works (the runtime then reports itself unavailable). With the tools
# present, a failing native build fails the Maven build. The fake GPU driver libraries the tests
# load are built beside the library in target/native; only the JNI library is packaged.
set -euo pipefail
target="$1" version="$2" javahome="$3" skip="${4:-false}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
res="$target/classes/META-INF/native"
mkdir -p "$res"
rm -rf "$res/unavailable.txt" "$res"/linux-*  # never ship a library from an earlier build
# Also drops an earlier native build, so no test runs its stale nunart-run or fake drivers.
unavailable() { rm -rf "$target/native"; echo "$1" > "$res/unavailable.txt"; echo "nunac-runtime: native library not built: $1" >&2; exit 0; }
[ "$skip" = "true" ] && unavailable "the build skipped it (-Dnunac.native.skip=true)"
[ "$(uname -s)" = "Linux" ] || unavailable "only Linux is supported, this is $(uname -s)"
command -v cmake >/dev/null || unavailable "cmake was not found when nunac was built"
command -v "${CC:-cc}" >/dev/null || command -v gcc >/dev/null || unavailable "no C compiler was found when nunac was built"
[ -f "$javahome/include/jni.h" ] || unavailable "no jni.h under $javahome/include (a JRE, not a JDK?)"
name="nunart-jni-$version"
log="$target/native-build.log"
if ! { cmake -S "$here" -B "$target/native" -DNUNART_VERSION="$version" -DNUNART_LIB_NAME="$name" \
        -DNUNART_JNI_INCLUDE="$javahome/include" -DNUNART_JNI_HEADERS="$target/jni-headers" -DNUNART_BUILD_MOCKS=ON \
     && cmake --build "$target/native" -j 2; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "nunac-runtime: native build failed (log: $log)" >&2
  exit 1
fi
arch="$(uname -m)"
mkdir -p "$res/linux-$arch"
cp "$target/native/lib$name.so" "$res/linux-$arch/"
