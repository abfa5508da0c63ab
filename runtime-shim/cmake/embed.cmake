# Turns the executor's device source into a C string (run by the build, not at configure time,
# so an edit to the .cu file rebuilds the library).
file(READ "${IN}" src)
string(REPLACE "\\" "\\\\" src "${src}")
string(REPLACE "\"" "\\\"" src "${src}")
string(REPLACE "\n" "\\n\"\n\"" src "${src}")
file(WRITE "${OUT}" "/* Generated from src/kernels/executor.cu. */\nconst char nr_kernel_source[] = \"${src}\";\n")
