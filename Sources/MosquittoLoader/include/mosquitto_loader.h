#ifndef MOSQUITTO_LOADER_H
#define MOSQUITTO_LOADER_H

#include <stddef.h>

/* One MQTT client through libmosquitto, which is loaded (dlopen "libmosquitto.so.1") when
   the first client is made: only `sensorwatch mqtt` ever loads it. No libmosquitto header is
   needed to build: the loader declares the few functions it calls itself. */
typedef struct sw_mqtt sw_mqtt;

/* What the client reports, from the thread that runs sw_mqtt_connect and sw_mqtt_loop. */
typedef struct sw_mqtt_callbacks {
    void *context;
    /* The broker's CONNACK: 0 accepted, else its refusal code (sw_mqtt_connack_text). */
    void (*connected)(void *context, int code);
    /* A message of a subscribed topic; `topic` is NUL-terminated, the payload is not. */
    void (*message)(void *context, const char *topic, const void *payload, int length);
    /* The broker acknowledged (QoS 1) or the client sent (QoS 0) the message `mid`. */
    void (*published)(void *context, int mid);
} sw_mqtt_callbacks;

/* Loads libmosquitto (once) and makes a client with these login, last-will and TLS settings
   (`tls` 0: plain TCP; else verified against `ca_file`, or the system's CAs when NULL).
   NULL with the reason in `error` when libmosquitto is missing or refuses a setting. */
sw_mqtt *sw_mqtt_new(const char *client_id, const char *user, const char *password,
                     const char *will_topic, const char *will_payload, int tls, const char *ca_file,
                     const sw_mqtt_callbacks *callbacks, char *error, size_t error_capacity);

/* Connects (blocking until the TCP connection, and for TLS its handshake, is made or fails).
   0, or -1 with the reason in words in `error`. */
int sw_mqtt_connect(sw_mqtt *client, const char *host, int port, int keepalive, char *error,
                    size_t error_capacity);

/* Runs the connection for up to `timeout_ms` (reads, writes, keep-alive). 0 while it lasts;
   -1 when it ended, with the reason in `error`. */
int sw_mqtt_loop(sw_mqtt *client, int timeout_ms, char *error, size_t error_capacity);

/* Queues a message (any thread; the loop's wait is woken to send it). Its message id (>= 0),
   or -1 when there is no connection to queue it on. */
int sw_mqtt_publish(sw_mqtt *client, const char *topic, const void *payload, int length, int qos,
                    int retain);

/* Subscribes to `filter` (any thread). 0, or -1. */
int sw_mqtt_subscribe(sw_mqtt *client, const char *filter, int qos);

/* Sends DISCONNECT after what is queued (any thread): the loop ends, no last will is sent. */
void sw_mqtt_disconnect(sw_mqtt *client);

/* Whether the last failure of sw_mqtt_connect or sw_mqtt_loop was TLS's (the handshake, a
   certificate not vouched for): 1 or 0. */
int sw_mqtt_failed_in_tls(sw_mqtt *client);

/* Frees the client; no loop may run on it any more. */
void sw_mqtt_destroy(sw_mqtt *client);

/* The words for a CONNACK refusal code ("not authorised"). */
const char *sw_mqtt_connack_text(int code);

#endif
