/* JNI binding for dev.nunac.runtime.NativeBinding. Handles are context pointers; the Java
 * side never passes a closed handle, and a zero handle is answered with an error, not a crash.
 * Strings cross as UTF-8 byte arrays: NewStringUTF and GetStringUTFChars speak modified UTF-8,
 * which mangles characters outside the BMP, and a failed conversion must not turn into a NULL
 * that the runtime would read as "auto". */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nunart.h"
#ifdef NUNART_HAVE_JNI_HEADER
#include "dev_nunac_runtime_NativeBinding.h"
#endif

#define CTX(h) ((nunart_ctx *) (intptr_t) (h))
#define FN(name) Java_dev_nunac_runtime_NativeBinding_##name

/* A NUL-terminated copy of a byte array (NULL array: *out = NULL); -1 when out of memory. */
static int copy_bytes(JNIEnv *env, jbyteArray a, char **out) {
    *out = NULL;
    if (!a) return 0;
    jsize n = (*env)->GetArrayLength(env, a);
    char *s = malloc((size_t) n + 1);
    if (!s) return -1;
    (*env)->GetByteArrayRegion(env, a, 0, n, (jbyte *) s);
    if ((*env)->ExceptionCheck(env)) { free(s); return -1; }
    s[n] = 0;
    *out = s;
    return 0;
}

/* A Java byte[] holding the C string's bytes; NULL (with an OutOfMemoryError pending) on failure. */
static jbyteArray bytes_of(JNIEnv *env, const char *s) {
    jsize n = (jsize) strlen(s);
    jbyteArray a = (*env)->NewByteArray(env, n);
    if (a) (*env)->SetByteArrayRegion(env, a, 0, n, (const jbyte *) s);
    return a;
}

JNIEXPORT jlong JNICALL FN(nOpen)(JNIEnv *env, jclass cls, jbyteArray backend, jbyteArray options) {
    (void) cls;
    char *b = NULL, *o = NULL;
    nunart_ctx *ctx = NULL;
    /* Either argument lost is no open at all: Java reports it, nothing falls back to "auto". */
    if (!copy_bytes(env, backend, &b) && !copy_bytes(env, options, &o)) nunart_open(&ctx, b ? b : "auto", o);
    free(b);
    free(o);
    (*env)->ExceptionClear(env);
    return (jlong) (intptr_t) ctx;
}

JNIEXPORT jint JNICALL FN(nStatus)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; return nunart_last_status(CTX(h)); }

JNIEXPORT jint JNICALL FN(nLoad)(JNIEnv *env, jclass cls, jlong h, jbyteArray table) {
    (void) cls;
    if (!h || !table) return NUNART_E_ARGUMENT;
    jsize n = (*env)->GetArrayLength(env, table);
    jbyte *bytes = (*env)->GetByteArrayElements(env, table, NULL);
    if (!bytes) return NUNART_E_MEMORY;
    nunart_status st = nunart_load(CTX(h), (const char *) bytes, (size_t) n);
    (*env)->ReleaseByteArrayElements(env, table, bytes, JNI_ABORT);
    return st;
}

JNIEXPORT jint JNICALL FN(nAlloc)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; return h ? nunart_alloc(CTX(h)) : NUNART_E_ARGUMENT; }
JNIEXPORT jint JNICALL FN(nLaunch)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; return h ? nunart_launch(CTX(h)) : NUNART_E_ARGUMENT; }
JNIEXPORT jint JNICALL FN(nVerify)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; return h ? nunart_verify(CTX(h)) : NUNART_E_ARGUMENT; }

JNIEXPORT jbyteArray JNICALL FN(nMessage)(JNIEnv *env, jclass cls, jlong h) { (void) cls; return bytes_of(env, nunart_message(CTX(h))); }
JNIEXPORT jbyteArray JNICALL FN(nReport)(JNIEnv *env, jclass cls, jlong h) { (void) cls; return bytes_of(env, nunart_report(CTX(h))); }
JNIEXPORT jbyteArray JNICALL FN(nState)(JNIEnv *env, jclass cls, jlong h) { (void) cls; return bytes_of(env, nunart_state_name(nunart_state_of(CTX(h)))); }
JNIEXPORT jbyteArray JNICALL FN(nVersion)(JNIEnv *env, jclass cls) { (void) cls; return bytes_of(env, nunart_version()); }

JNIEXPORT jfloatArray JNICALL FN(nOutput)(JNIEnv *env, jclass cls, jlong h, jint rank) {
    (void) cls;
    size_t n = 0;
    if (!h || nunart_read_output(CTX(h), rank, NULL, 0, &n)) return NULL;
    if (n > (size_t) 0x7fffffff) return NULL;
    float *buf = malloc((n ? n : 1) * sizeof(float));
    if (!buf) return NULL;
    jfloatArray out = NULL;
    if (!nunart_read_output(CTX(h), rank, buf, n, &n) && (out = (*env)->NewFloatArray(env, (jsize) n)))
        (*env)->SetFloatArrayRegion(env, out, 0, (jsize) n, buf);
    free(buf);
    return out;
}

JNIEXPORT jintArray JNICALL FN(nGridOrder)(JNIEnv *env, jclass cls, jlong h, jint rank) {
    (void) cls;
    size_t n = 0;
    if (!h || nunart_grid_order(CTX(h), rank, NULL, 0, &n)) return NULL;
    int *buf = malloc((n ? n : 1) * sizeof(int));
    if (!buf) return NULL;
    jintArray out = NULL;
    if (!nunart_grid_order(CTX(h), rank, buf, n, &n) && (out = (*env)->NewIntArray(env, (jsize) n)))
        (*env)->SetIntArrayRegion(env, out, 0, (jsize) n, (const jint *) buf);
    free(buf);
    return out;
}

JNIEXPORT jint JNICALL FN(nPartRank)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; return h ? nunart_part_rank(CTX(h)) : -1; }

JNIEXPORT jintArray JNICALL FN(nTbPlacement)(JNIEnv *env, jclass cls, jlong h, jint rank, jint tb) {
    (void) cls;
    int buf[4];
    if (!h || nunart_tb_placement(CTX(h), rank, tb, buf)) return NULL;
    jintArray out = (*env)->NewIntArray(env, 4);
    if (out) (*env)->SetIntArrayRegion(env, out, 0, 4, (const jint *) buf);
    return out;
}

JNIEXPORT jdouble JNICALL FN(nTime)(JNIEnv *env, jclass cls, jlong h, jint n, jint pinned) {
    (void) env; (void) cls;
    double us = 0;
    if (!h || nunart_time_launches(CTX(h), n, pinned, &us)) return -1.0;
    return us;
}

JNIEXPORT void JNICALL FN(nClose)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; nunart_close(CTX(h)); }
