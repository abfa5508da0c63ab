/* JNI binding for dev.nunac.runtime.NativeBinding. Handles are context pointers; the Java
 * side never passes a closed handle, and a zero handle is answered with an error, not a crash. */
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

JNIEXPORT jlong JNICALL FN(nOpen)(JNIEnv *env, jclass cls, jstring backend, jstring options) {
    (void) cls;
    const char *b = backend ? (*env)->GetStringUTFChars(env, backend, NULL) : NULL;
    const char *o = options ? (*env)->GetStringUTFChars(env, options, NULL) : NULL;
    nunart_ctx *ctx = NULL;
    nunart_open(&ctx, b, o);
    if (b) (*env)->ReleaseStringUTFChars(env, backend, b);
    if (o) (*env)->ReleaseStringUTFChars(env, options, o);
    return (jlong) (intptr_t) ctx;
}

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

JNIEXPORT jstring JNICALL FN(nMessage)(JNIEnv *env, jclass cls, jlong h) { (void) cls; return (*env)->NewStringUTF(env, nunart_message(CTX(h))); }
JNIEXPORT jstring JNICALL FN(nReport)(JNIEnv *env, jclass cls, jlong h) { (void) cls; return (*env)->NewStringUTF(env, nunart_report(CTX(h))); }
JNIEXPORT jstring JNICALL FN(nState)(JNIEnv *env, jclass cls, jlong h) { (void) cls; return (*env)->NewStringUTF(env, nunart_state_name(nunart_state_of(CTX(h)))); }
JNIEXPORT jstring JNICALL FN(nVersion)(JNIEnv *env, jclass cls) { (void) cls; return (*env)->NewStringUTF(env, nunart_version()); }

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

JNIEXPORT jdouble JNICALL FN(nTime)(JNIEnv *env, jclass cls, jlong h, jint n, jint pinned) {
    (void) env; (void) cls;
    double us = 0;
    if (!h || nunart_time_launches(CTX(h), n, pinned, &us)) return -1.0;
    return us;
}

JNIEXPORT void JNICALL FN(nClose)(JNIEnv *env, jclass cls, jlong h) { (void) env; (void) cls; nunart_close(CTX(h)); }
