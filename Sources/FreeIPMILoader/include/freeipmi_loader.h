#ifndef FREEIPMI_LOADER_H
#define FREEIPMI_LOADER_H

#include <stddef.h>
#include <stdint.h>

/* One BMC session through libfreeipmi, which is loaded (dlopen "libfreeipmi.so.17", or the
   path in $SENSORWATCH_FREEIPMI_LIBRARY) on the first open, so neither the binary nor its
   package depends on it. No FreeIPMI header is needed to build this: the few prototypes
   used are declared in freeipmi_loader.c. Every call blocks its thread for at most the
   session timeout; a session is used by one thread at a time. */

/* Why a call failed, for words in Swift. */
enum sw_ipmi_failure {
    SW_IPMI_OK = 0,
    SW_IPMI_NO_LIBRARY = 1,
    SW_IPMI_TIMEOUT = 2,
    SW_IPMI_PASSWORD = 3,
    SW_IPMI_USER = 4,
    SW_IPMI_PRIVILEGE = 5,
    SW_IPMI_HOST = 6,
    SW_IPMI_NO_DEVICE = 7,
    SW_IPMI_OTHER = 8,
};

typedef struct sw_ipmi sw_ipmi;

/* One sensor record of the SDR, as far as sensorwatch uses it. `thresholds` in the
   sensor's unit, in the order lower non-critical, lower critical, lower non-recoverable,
   upper non-critical, upper critical, upper non-recoverable; bit i of `threshold_mask` set
   where thresholds[i] is given. */
struct sw_ipmi_record {
    uint16_t record_id;
    uint8_t record_type;
    uint8_t sensor_type;
    uint8_t event_reading_type;
    uint8_t sensor_number;
    uint8_t base_unit;
    uint8_t is_threshold;
    unsigned threshold_mask;
    double thresholds[6];
    /* The SDR's positive- and negative-going hysteresis in the sensor's unit (a difference;
       0: none). */
    double hysteresis_positive;
    double hysteresis_negative;
    char name[64];
};

/* Loads libfreeipmi if it is not yet: 0, or -1 with why not (and the package) in `error`. */
int sw_ipmi_library(char *error, size_t error_capacity);

/* Opens a session: over the LAN (IPMI 2.0) to `host` ("name" or "name:port"), or in band
   when `host` is NULL. NULL on failure, with `*failure` and the library's words in `error`.
   A BMC that does not answer within `timeout_ms` fails it. FreeIPMI fails a call once
   `session_timeout_ms` have passed since the last packet it received, which may be before the
   call began (see FreeIPMITransport.timeouts); it sends a request again each `retransmit_ms`
   without an answer. */
sw_ipmi *sw_ipmi_open(const char *host, const char *user, const char *password, int privilege,
                      int cipher_suite, unsigned timeout_ms, unsigned session_timeout_ms, unsigned retransmit_ms,
                      unsigned workarounds, int *failure, char *error, size_t error_capacity);

/* Closes the session (the BMC frees its slot) and frees everything. NULL is ignored. */
void sw_ipmi_close(sw_ipmi *session);

/* Reads the SDR (from the cache file when it is current, else from the BMC into it) and keeps
   its sensor records as bytes, the cache closed again; returns the number of sensor records
   (sw_ipmi_record fills them) or -1. */
int sw_ipmi_load_sdr(sw_ipmi *session, const char *cache_path, int *failure, char *error, size_t error_capacity);

/* The record at `index` (0 ≤ index < the count sw_ipmi_load_sdr returned). */
int sw_ipmi_record_at(sw_ipmi *session, unsigned index, struct sw_ipmi_record *out);

/* Reads the sensor at `index`: 1 with a value (`*value`), 0 with only its state bits
   (`*bitmask`: a discrete sensor, or a value the BMC cannot give now), -1 when the
   session failed (`*failure`: reopen it), -2 when this sensor could not be read. */
int sw_ipmi_read(sw_ipmi *session, unsigned index, double *value, uint16_t *bitmask,
                 int *failure, char *error, size_t error_capacity);

/* FreeIPMI's interpretation of state `offset` of a discrete sensor: 0 nominal, 1 warning,
   2 critical, 3 unknown; and its words in `text`. */
int sw_ipmi_state(sw_ipmi *session, uint8_t event_reading_type, uint8_t sensor_type, unsigned offset,
                  char *text, size_t text_capacity);

/* One record of the System Event Log. */
struct sw_ipmi_sel_entry {
    uint16_t record_id;
    uint32_t timestamp;
    unsigned state; /* 0 nominal, 1 warning, 2 critical, 3 unknown */
    char sensor[64];
    char event[192];
};

/* The SEL's records from record `start` on (0: the first): calls `each` for every record
   (in log order) with `context`, one round trip each. Returns the number of records or -1
   (`*failure`; a `start` the log no longer holds fails too). */
int sw_ipmi_sel(sw_ipmi *session, uint16_t start, void (*each)(void *context, const struct sw_ipmi_sel_entry *entry),
                void *context, int *failure, char *error, size_t error_capacity);

#endif
