/* Fake runtime compiler: hipRTC (MOCK_HIPRTC) or NVRTC. "Compiles" the executor to MOCK_CODE,
 * or fails with a log when NUNART_MOCK_COMPILE_ERROR is set. */
#include "mock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MOCK_HIPRTC
#define RTC(name) hiprtc##name
#define RTC_GET_CODE_SIZE hiprtcGetCodeSize
#define RTC_GET_CODE hiprtcGetCode
#define RTC_PREFIX "HIPRTC"
#else
#define RTC(name) nvrtc##name
#define RTC_GET_CODE_SIZE nvrtcGetPTXSize
#define RTC_GET_CODE nvrtcGetPTX
#define RTC_PREFIX "NVRTC"
#endif

enum { OK = 0, E_MEMORY = 1, E_INPUT = 3, E_PROGRAM = 4, E_COMPILATION = 6 };

typedef struct {
    int compiled, multi;
    char log[512];
} prog_t;

int RTC(CreateProgram)(void **prog, const char *src, const char *name, int nheaders, const char *const *headers,
                       const char *const *include_names) {
    (void) name; (void) headers; (void) include_names;
    /* The executor's current signature: a stale embedded source would show here. */
    if (!src || nheaders != 0 || !strstr(src, "nunart_exec") || !strstr(src, "int tb_hi")) return E_INPUT;
    *prog = calloc(1, sizeof(prog_t));
    return *prog ? OK : E_MEMORY;
}

int RTC(CompileProgram)(void *prog, int nopts, const char *const *opts) {
    prog_t *p = prog;
    char line[256];
    int k = snprintf(line, sizeof line, "%sCompileProgram", RTC_PREFIX);
    for (int i = 0; i < nopts && k > 0 && (size_t) k < sizeof line; i++) k += snprintf(line + k, sizeof line - (size_t) k, " %s", opts[i]);
    mock_trace("%s", line);
    if (!p) return E_PROGRAM;
    const char *err = getenv("NUNART_MOCK_COMPILE_ERROR");
    if (err && *err) {
        snprintf(p->log, sizeof p->log, "executor.cu:1:1: error: %s", err);
        return E_COMPILATION;
    }
    for (int i = 0; i < nopts; i++) p->multi |= strcmp(opts[i], "-DNR_MULTI=1") == 0;
    p->compiled = 1;
    return OK;
}

int RTC_GET_CODE_SIZE(void *prog, size_t *n) {
    if (!prog || !((prog_t *) prog)->compiled) return E_PROGRAM;
    *n = ((prog_t *) prog)->multi ? sizeof MOCK_CODE_MULTI : sizeof MOCK_CODE;
    return OK;
}

int RTC_GET_CODE(void *prog, char *out) {
    if (!prog || !((prog_t *) prog)->compiled) return E_PROGRAM;
    if (((prog_t *) prog)->multi) memcpy(out, MOCK_CODE_MULTI, sizeof MOCK_CODE_MULTI);
    else memcpy(out, MOCK_CODE, sizeof MOCK_CODE);
    return OK;
}

int RTC(GetProgramLogSize)(void *prog, size_t *n) {
    if (!prog) return E_PROGRAM;
    *n = strlen(((prog_t *) prog)->log) + 1;
    return OK;
}

int RTC(GetProgramLog)(void *prog, char *out) {
    if (!prog) return E_PROGRAM;
    strcpy(out, ((prog_t *) prog)->log);
    return OK;
}

int RTC(DestroyProgram)(void **prog) {
    free(*prog);
    *prog = NULL;
    return OK;
}

const char *RTC(GetErrorString)(int rc) {
    switch (rc) {
    case OK: return RTC_PREFIX "_SUCCESS";
    case E_MEMORY: return RTC_PREFIX "_ERROR_OUT_OF_MEMORY";
    case E_INPUT: return RTC_PREFIX "_ERROR_INVALID_INPUT";
    case E_PROGRAM: return RTC_PREFIX "_ERROR_INVALID_PROGRAM";
    case E_COMPILATION: return RTC_PREFIX "_ERROR_COMPILATION";
    default: return RTC_PREFIX "_ERROR_UNKNOWN";
    }
}
