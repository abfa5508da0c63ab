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
    char arch[32];         /* NVRTC: the --gpu-architecture value, e.g. sm_90 or compute_90 */
    char log[512];
} prog_t;

static void version(int *major, int *minor) {
#ifdef MOCK_HIPRTC
    const char *v = getenv("NUNART_MOCK_HIPRTC_VERSION");
    if (!v || sscanf(v, "%d.%d", major, minor) != 2) { *major = 6; *minor = 2; }
#else
    const char *v = getenv("NUNART_MOCK_NVRTC_VERSION");
    if (!v || sscanf(v, "%d.%d", major, minor) != 2) { *major = 13; *minor = 0; }
#endif
}

int RTC(Version)(int *major, int *minor) {
    if (!major || !minor) return E_INPUT;
    version(major, minor);
    return OK;
}

int RTC(CreateProgram)(void **prog, const char *src, const char *name, int nheaders, const char *const *headers,
                       const char *const *include_names) {
    (void) name; (void) headers; (void) include_names;
    /* The executor's current signature: a stale embedded source would show here. */
    if (!src || nheaders != 0 || !strstr(src, "nunart_exec") || !strstr(src, "int *stats") || !strstr(src, "nunart_probe")) return E_INPUT;
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
    for (int i = 0; i < nopts; i++) {
        p->multi |= strcmp(opts[i], "-DNR_MULTI=1") == 0;
        if (!strncmp(opts[i], "--gpu-architecture=", 19)) snprintf(p->arch, sizeof p->arch, "%s", opts[i] + 19);
    }
    p->compiled = 1;
    return OK;
}

/* The image: MOCK_CODE (MULTI), and for NVRTC what it was compiled as (mock.h); "" when the
 * program cannot give that kind (a cubin needs an sm_XY target, as with the real NVRTC). */
static void image(const prog_t *p, const char *kind, char *out, size_t cap) {
    int major, minor;
    version(&major, &minor);
    const char *code = p->multi ? MOCK_CODE_MULTI : MOCK_CODE;
#ifdef MOCK_HIPRTC
    (void) kind; (void) major; (void) minor;
    snprintf(out, cap, "%s", code);
#else
    int arch = 0;
    if (!strcmp(kind, "cubin") ? sscanf(p->arch, "sm_%d", &arch) != 1 : sscanf(p->arch, "compute_%d", &arch) != 1) { out[0] = 0; return; }
    snprintf(out, cap, "%s kind=%s arch=%d nvrtc=%d.%d", code, kind, arch, major, minor);
#endif
}

static int code_size(void *prog, const char *kind, size_t *n) {
    char buf[160];
    if (!prog || !((prog_t *) prog)->compiled) return E_PROGRAM;
    image(prog, kind, buf, sizeof buf);
    if (!buf[0]) return E_INPUT;
    *n = strlen(buf) + 1;
    return OK;
}

static int code(void *prog, const char *kind, char *out) {
    char buf[160];
    if (!prog || !((prog_t *) prog)->compiled) return E_PROGRAM;
    image(prog, kind, buf, sizeof buf);
    if (!buf[0]) return E_INPUT;
    memcpy(out, buf, strlen(buf) + 1);
    return OK;
}

int RTC_GET_CODE_SIZE(void *prog, size_t *n) { return code_size(prog, "ptx", n); }
int RTC_GET_CODE(void *prog, char *out) { return code(prog, "ptx", out); }

#if !defined(MOCK_HIPRTC) && !defined(MOCK_NO_CUBIN)
int nvrtcGetCUBINSize(void *prog, size_t *n) { return code_size(prog, "cubin", n); }
int nvrtcGetCUBIN(void *prog, char *out) { return code(prog, "cubin", out); }

static int archs(int *out) {
    const char *v = getenv("NUNART_MOCK_NVRTC_ARCHS");
    if (!v || !*v) v = "75,80,86,87,89,90,100,120";
    int n = 0;
    for (const char *p = v; *p && n < 64; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (out) out[n] = atoi(p);
        n++;
    }
    return n;
}
int nvrtcGetNumSupportedArchs(int *n) { *n = archs(NULL); return OK; }
int nvrtcGetSupportedArchs(int *list) { archs(list); return OK; }
#endif

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
