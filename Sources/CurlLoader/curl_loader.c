#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "curl_loader.h"

/* The libcurl functions used, looked up once. curl_easy_setopt and curl_easy_getinfo are
   variadic: called through pointers of their own variadic type, as the header declares. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;
static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl (install libcurl4): %s", dlerror());
        return;
    }
#define SYM(field, name) \
    if (!(*(void **)&curl.field = dlsym(lib, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name); \
        return; \
    }
    SYM(global_init, "curl_global_init")
    SYM(easy_init, "curl_easy_init")
    SYM(easy_setopt, "curl_easy_setopt")
    SYM(easy_perform, "curl_easy_perform")
    SYM(easy_getinfo, "curl_easy_getinfo")
    SYM(easy_cleanup, "curl_easy_cleanup")
    SYM(easy_strerror, "curl_easy_strerror")
    SYM(slist_append, "curl_slist_append")
    SYM(slist_free_all, "curl_slist_free_all")
#undef SYM
    /* Not thread-safe in older libcurl: done once, here, under pthread_once. */
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed");
        curl.easy_init = NULL;
    }
}

struct answer {
    char *buffer;
    size_t capacity;
    size_t length;
};

static size_t keep_start(char *data, size_t size, size_t count, void *context) {
    struct answer *a = context;
    size_t n = size * count;
    if (a->capacity > 0 && a->length + 1 < a->capacity) {
        size_t room = a->capacity - 1 - a->length;
        size_t take = n < room ? n : room;
        memcpy(a->buffer + a->length, data, take);
        a->length += take;
        a->buffer[a->length] = 0;
    }
    return n; /* the rest is read and dropped */
}

static int check_abort(void *flag, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un) {
    (void)dt; (void)dn; (void)ut; (void)un;
    return __atomic_load_n((int *)flag, __ATOMIC_ACQUIRE) ? 1 : 0;
}

void sw_curl_abort(int *abort_flag) { __atomic_store_n(abort_flag, 1, __ATOMIC_RELEASE); }

int sw_curl_post_json(const char *method, const char *url, const char *user, const char *password,
                      const char *json, size_t json_length, long timeout_ms,
                      int *abort_flag, long *status, char *body_out, size_t body_capacity,
                      char *error, size_t error_capacity) {
    pthread_once(&loaded_once, load);
    if (body_capacity > 0) body_out[0] = 0;
    if (!curl.easy_init) {
        snprintf(error, error_capacity, "%s", load_error);
        return -1;
    }
    CURL *h = curl.easy_init();
    if (!h) {
        snprintf(error, error_capacity, "curl_easy_init failed");
        return -1;
    }
    char detail[CURL_ERROR_SIZE] = {0};
    struct answer a = {body_out, body_capacity, 0};
    struct curl_slist *headers = curl.slist_append(NULL, "Content-Type: application/json");
    curl.easy_setopt(h, CURLOPT_URL, url);
    if (method == NULL || strcmp(method, "POST") == 0) {
        curl.easy_setopt(h, CURLOPT_POST, 1L);
        curl.easy_setopt(h, CURLOPT_POSTFIELDS, json);
        curl.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)json_length);
    } else {
        curl.easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    }
    curl.easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(h, CURLOPT_ERRORBUFFER, detail);
    curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, keep_start);
    curl.easy_setopt(h, CURLOPT_WRITEDATA, &a);
    curl.easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, check_abort);
    curl.easy_setopt(h, CURLOPT_XFERINFODATA, abort_flag);
    curl.easy_setopt(h, CURLOPT_USERAGENT, "sensorwatch-notify");
    if (user) {
        /* Basic only, sent at once: no round trip to learn the scheme, and never anything
           weaker offered to a server that asks for it. Redirects are not followed, so the
           header goes to this host alone. */
        curl.easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        curl.easy_setopt(h, CURLOPT_USERNAME, user);
        curl.easy_setopt(h, CURLOPT_PASSWORD, password ? password : "");
    }
    CURLcode r = curl.easy_perform(h);
    int result = 0;
    if (r == CURLE_OK) {
        curl.easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    } else {
        snprintf(error, error_capacity, "%s", detail[0] ? detail : curl.easy_strerror(r));
        result = -1;
    }
    curl.slist_free_all(headers);
    curl.easy_cleanup(h);
    return result;
}
