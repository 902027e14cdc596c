#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mosquitto_loader.h"

/* libmosquitto's own declarations, for the few functions called (mosquitto.h of 2.0, whose
   ABI, libmosquitto.so.1, has not changed since 1.x): no header package is needed to build. */
struct mosquitto;
struct mosquitto_message {
    int mid;
    char *topic;
    void *payload;
    int payloadlen;
    int qos;
    bool retain;
};
enum { MOSQ_ERR_SUCCESS = 0, MOSQ_ERR_TLS = 8, MOSQ_ERR_ERRNO = 14, MOSQ_LOG_WARNING = 0x04, MOSQ_LOG_ERR = 0x08 };

static struct {
    int (*lib_init)(void);
    struct mosquitto *(*new_client)(const char *, bool, void *);
    void (*destroy)(struct mosquitto *);
    int (*threaded_set)(struct mosquitto *, bool);
    int (*username_pw_set)(struct mosquitto *, const char *, const char *);
    int (*will_set)(struct mosquitto *, const char *, int, const void *, int, bool);
    int (*tls_set)(struct mosquitto *, const char *, const char *, const char *, const char *,
                   int (*)(char *, int, int, void *));
    int (*connect)(struct mosquitto *, const char *, int, int);
    int (*disconnect)(struct mosquitto *);
    int (*loop)(struct mosquitto *, int, int);
    int (*publish)(struct mosquitto *, int *, const char *, int, const void *, int, bool);
    int (*subscribe)(struct mosquitto *, int *, const char *, int);
    void (*connect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*publish_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*message_callback_set)(struct mosquitto *,
                                 void (*)(struct mosquitto *, void *, const struct mosquitto_message *));
    void (*log_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, const char *));
    const char *(*strerror)(int);
    const char *(*connack_string)(int);
} mosq;
static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static bool loaded;

static void load(void) {
    void *lib = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error,
                 "cannot load libmosquitto (install the package libmosquitto1): %s", dlerror());
        return;
    }
#define SYM(field, name) \
    if (!(*(void **)&mosq.field = dlsym(lib, name))) { \
        snprintf(load_error, sizeof load_error, "libmosquitto.so.1 has no %s (install libmosquitto1 2.0 or newer)", name); \
        return; \
    }
    SYM(lib_init, "mosquitto_lib_init")
    SYM(new_client, "mosquitto_new")
    SYM(destroy, "mosquitto_destroy")
    SYM(threaded_set, "mosquitto_threaded_set")
    SYM(username_pw_set, "mosquitto_username_pw_set")
    SYM(will_set, "mosquitto_will_set")
    SYM(tls_set, "mosquitto_tls_set")
    SYM(connect, "mosquitto_connect")
    SYM(disconnect, "mosquitto_disconnect")
    SYM(loop, "mosquitto_loop")
    SYM(publish, "mosquitto_publish")
    SYM(subscribe, "mosquitto_subscribe")
    SYM(connect_callback_set, "mosquitto_connect_callback_set")
    SYM(publish_callback_set, "mosquitto_publish_callback_set")
    SYM(message_callback_set, "mosquitto_message_callback_set")
    SYM(log_callback_set, "mosquitto_log_callback_set")
    SYM(strerror, "mosquitto_strerror")
    SYM(connack_string, "mosquitto_connack_string")
#undef SYM
    /* Not thread-safe: done once, here, under pthread_once. */
    mosq.lib_init();
    loaded = true;
}

struct sw_mqtt {
    struct mosquitto *m;
    sw_mqtt_callbacks callbacks;
    /* The last error libmosquitto logged (OpenSSL's reason for a refused certificate is only
       said there); written and read on the connection's thread. */
    char last_log[256];
    /* Whether the last failure was TLS's (read on the connection's thread). */
    int tls_failed;
};

static void on_connect(struct mosquitto *m, void *context, int code) {
    (void)m;
    sw_mqtt *c = context;
    if (c->callbacks.connected) c->callbacks.connected(c->callbacks.context, code);
}

static void on_publish(struct mosquitto *m, void *context, int mid) {
    (void)m;
    sw_mqtt *c = context;
    if (c->callbacks.published) c->callbacks.published(c->callbacks.context, mid);
}

static void on_message(struct mosquitto *m, void *context, const struct mosquitto_message *message) {
    (void)m;
    sw_mqtt *c = context;
    if (c->callbacks.message && message && message->topic)
        c->callbacks.message(c->callbacks.context, message->topic, message->payload, message->payloadlen);
}

static void on_log(struct mosquitto *m, void *context, int level, const char *text) {
    (void)m;
    sw_mqtt *c = context;
    if ((level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING)) && text)
        snprintf(c->last_log, sizeof c->last_log, "%s", text);
}

/* The reason for `rc` in words, with what libmosquitto logged about it. */
static void describe(sw_mqtt *c, int rc, int saved_errno, char *error, size_t capacity) {
    const char *words = rc == MOSQ_ERR_ERRNO ? strerror(saved_errno) : mosq.strerror(rc);
    /* OpenSSL's errors reach the log callback only; a refused certificate can also end
       the loop as a lost connection, with the log saying why. */
    c->tls_failed = rc == MOSQ_ERR_TLS || strstr(c->last_log, "SSL") || strstr(c->last_log, "certificate");
    if (c->last_log[0])
        snprintf(error, capacity, "%s (%s)", words, c->last_log);
    else
        snprintf(error, capacity, "%s", words);
    c->last_log[0] = 0;
}

sw_mqtt *sw_mqtt_new(const char *client_id, const char *user, const char *password,
                     const char *will_topic, const char *will_payload, int tls, const char *ca_file,
                     const sw_mqtt_callbacks *callbacks, char *error, size_t error_capacity) {
    pthread_once(&loaded_once, load);
    if (!loaded) {
        snprintf(error, error_capacity, "%s", load_error);
        return NULL;
    }
    sw_mqtt *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(error, error_capacity, "out of memory");
        return NULL;
    }
    c->callbacks = *callbacks;
    /* A clean session: after a restart everything is published anew, so nothing the broker
       kept for an old session is needed. */
    c->m = mosq.new_client(client_id, true, c);
    if (!c->m) {
        snprintf(error, error_capacity, "mosquitto_new failed: %s", strerror(errno));
        free(c);
        return NULL;
    }
    /* Publishing happens on another thread than the loop's: libmosquitto then locks its
       queues and wakes the loop's wait through its socket pair. */
    mosq.threaded_set(c->m, true);
    mosq.connect_callback_set(c->m, on_connect);
    mosq.publish_callback_set(c->m, on_publish);
    mosq.message_callback_set(c->m, on_message);
    mosq.log_callback_set(c->m, on_log);
    int rc = MOSQ_ERR_SUCCESS;
    if (user) rc = mosq.username_pw_set(c->m, user, password);
    if (rc == MOSQ_ERR_SUCCESS && will_topic)
        rc = mosq.will_set(c->m, will_topic, (int)strlen(will_payload), will_payload, 1, true);
    if (rc == MOSQ_ERR_SUCCESS && tls)
        rc = mosq.tls_set(c->m, ca_file, ca_file ? NULL : "/etc/ssl/certs", NULL, NULL, NULL);
    if (rc != MOSQ_ERR_SUCCESS) {
        describe(c, rc, errno, error, error_capacity);
        mosq.destroy(c->m);
        free(c);
        return NULL;
    }
    return c;
}

int sw_mqtt_connect(sw_mqtt *c, const char *host, int port, int keepalive, char *error, size_t error_capacity) {
    c->last_log[0] = 0;
    int rc = mosq.connect(c->m, host, port, keepalive);
    if (rc == MOSQ_ERR_SUCCESS) return 0;
    describe(c, rc, errno, error, error_capacity);
    return -1;
}

int sw_mqtt_loop(sw_mqtt *c, int timeout_ms, char *error, size_t error_capacity) {
    int rc = mosq.loop(c->m, timeout_ms, 1);
    if (rc == MOSQ_ERR_SUCCESS) return 0;
    describe(c, rc, errno, error, error_capacity);
    return -1;
}

int sw_mqtt_publish(sw_mqtt *c, const char *topic, const void *payload, int length, int qos, int retain) {
    int mid = 0;
    int rc = mosq.publish(c->m, &mid, topic, length, payload, qos, retain != 0);
    return rc == MOSQ_ERR_SUCCESS ? mid : -1;
}

int sw_mqtt_subscribe(sw_mqtt *c, const char *filter, int qos) {
    return mosq.subscribe(c->m, NULL, filter, qos) == MOSQ_ERR_SUCCESS ? 0 : -1;
}

void sw_mqtt_disconnect(sw_mqtt *c) { mosq.disconnect(c->m); }

int sw_mqtt_failed_in_tls(sw_mqtt *c) { return c->tls_failed; }

void sw_mqtt_destroy(sw_mqtt *c) {
    if (!c) return;
    mosq.destroy(c->m);
    free(c);
}

const char *sw_mqtt_connack_text(int code) {
    pthread_once(&loaded_once, load);
    return loaded ? mosq.connack_string(code) : "refused";
}
