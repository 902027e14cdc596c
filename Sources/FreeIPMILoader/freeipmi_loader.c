#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "freeipmi_loader.h"

/* FreeIPMI's contexts are opaque pointers; the prototypes below are those of
   /usr/include/freeipmi (libfreeipmi 1.6, soname 17), declared here so the build needs no
   libfreeipmi-dev. Numbers are the header's. */
typedef void *ctx_t;
#define IPMI_DEVICE_OPENIPMI 7
#define IPMI_ERR_USERNAME_INVALID 4
#define IPMI_ERR_PASSWORD_INVALID 5
#define IPMI_ERR_PRIVILEGE_LEVEL_INSUFFICIENT 7
#define IPMI_ERR_PRIVILEGE_LEVEL_CANNOT_BE_OBTAINED 8
#define IPMI_ERR_PASSWORD_VERIFICATION_TIMEOUT 11
#define IPMI_ERR_CONNECTION_TIMEOUT 13
#define IPMI_ERR_SESSION_TIMEOUT 14
#define IPMI_ERR_DEVICE_NOT_FOUND 18
#define IPMI_ERR_DRIVER_TIMEOUT 20
#define IPMI_ERR_MESSAGE_TIMEOUT 21
#define IPMI_ERR_HOSTNAME_INVALID 29
#define IPMI_FLAGS_NOSESSION 0x02
#define IPMI_FLAGS_NO_VALID_CHECK 0x100
#define IPMI_AUTHENTICATION_TYPE_NONE 0x00
#define IPMI_PRIVILEGE_LEVEL_USER 0x02
#define IPMI_CHANNEL_NUMBER_CURRENT 0x0e
#define IPMI_SDR_ERR_CACHE_READ_CACHE_DOES_NOT_EXIST 15
#define IPMI_SDR_ERR_CACHE_INVALID 16
#define IPMI_SDR_ERR_CACHE_OUT_OF_DATE 17
#define IPMI_SDR_CACHE_CREATE_FLAGS_OVERWRITE 0x01
#define IPMI_SLAVE_ADDRESS_BMC 0x20
#define IPMI_COMP_CODE_NODE_BUSY 0xC0
#define IPMI_COMP_CODE_UNSPECIFIED_ERROR 0xFF
#define IPMI_SDR_FULL 0x01
#define IPMI_SDR_COMPACT 0x02
#define EVENT_READING_THRESHOLD 0x01
#define EVENT_READING_SPECIFIC 0x6f

static struct {
    ctx_t (*ctx_create)(void);
    int (*ctx_errnum)(ctx_t);
    char *(*ctx_errormsg)(ctx_t);
    int (*open_lan)(ctx_t, const char *, const char *, const char *, const unsigned char *, unsigned,
                    uint8_t, uint8_t, unsigned, unsigned, unsigned, unsigned);
    int (*open_inband)(ctx_t, int, int, uint16_t, uint8_t, const char *, unsigned, unsigned);
    int (*open_lan_1_5)(ctx_t, const char *, const char *, const char *, uint8_t, uint8_t, unsigned, unsigned,
                        unsigned, unsigned);
    int (*get_auth_caps)(ctx_t, uint8_t, uint8_t, uint8_t, void *);
    int (*ctx_close)(ctx_t);
    void (*ctx_destroy)(ctx_t);
    ctx_t (*sdr_create)(void);
    void (*sdr_destroy)(ctx_t);
    int (*sdr_errnum)(ctx_t);
    char *(*sdr_errormsg)(ctx_t);
    int (*cache_open)(ctx_t, ctx_t, const char *);
    int (*cache_create)(ctx_t, ctx_t, const char *, int, void *, void *);
    int (*cache_delete)(ctx_t, const char *);
    int (*cache_close)(ctx_t);
    int (*cache_first)(ctx_t);
    int (*cache_next)(ctx_t);
    int (*cache_record_read)(ctx_t, void *, unsigned);
    int (*parse_id_type)(ctx_t, const void *, unsigned, uint16_t *, uint8_t *);
    int (*parse_id_string)(ctx_t, const void *, unsigned, char *, unsigned);
    int (*parse_units)(ctx_t, const void *, unsigned, uint8_t *, uint8_t *, uint8_t *, uint8_t *, uint8_t *);
    int (*parse_thresholds)(ctx_t, const void *, unsigned, double **, double **, double **, double **, double **, double **);
    int (*parse_readable)(ctx_t, const void *, unsigned, uint8_t *, uint8_t *, uint8_t *, uint8_t *, uint8_t *, uint8_t *);
    int (*parse_sensor_type)(ctx_t, const void *, unsigned, uint8_t *);
    int (*parse_ert)(ctx_t, const void *, unsigned, uint8_t *);
    int (*parse_number)(ctx_t, const void *, unsigned, uint8_t *);
    int (*get_reading)(ctx_t, uint8_t, void *);
    int (*get_flags)(ctx_t, unsigned *);
    int (*set_flags)(ctx_t, unsigned);
    ctx_t (*interpret_create)(void);
    int (*interpret_sensor)(ctx_t, uint8_t, uint8_t, uint16_t, unsigned *);
    int (*interpret_sel)(ctx_t, const void *, unsigned, unsigned *);
    int (*generic_message)(uint8_t, unsigned, char *, unsigned);
    int (*sensor_type_message)(uint8_t, unsigned, char *, unsigned);
    int (*parse_hysteresis)(ctx_t, const void *, unsigned, uint8_t *, uint8_t *);
    int (*parse_decoding)(ctx_t, const void *, unsigned, int8_t *, int8_t *, int16_t *, int16_t *, uint8_t *, uint8_t *);
    int (*decode_value)(int8_t, int8_t, int16_t, int16_t, uint8_t, uint8_t, uint8_t, double *);
    int (*get_thresholds)(ctx_t, uint8_t, void *);
    void *(*obj_create)(const void *);
    void (*obj_destroy)(void *);
    int (*obj_get)(void *, const char *, uint64_t *);
    const void *thresholds_rs; /* tmpl_cmd_get_sensor_thresholds_rs: a template (data) */
    const void *reading_rs;    /* tmpl_cmd_get_sensor_reading_rs */
    const void *auth_caps_rs;  /* tmpl_cmd_get_channel_authentication_capabilities_rs */
    ctx_t (*sel_create)(ctx_t, ctx_t);
    void (*sel_destroy)(ctx_t);
    char *(*sel_errormsg)(ctx_t);
    int (*sel_parse)(ctx_t, uint16_t, uint16_t, int (*)(ctx_t, void *), void *);
    int (*sel_read_record)(ctx_t, void *, unsigned);
    int (*sel_record_id)(ctx_t, const void *, unsigned, uint16_t *);
    int (*sel_timestamp)(ctx_t, const void *, unsigned, uint32_t *);
    int (*sel_string)(ctx_t, const char *, const void *, unsigned, char *, unsigned, unsigned);
} fi;
static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;

static void say(char *error, size_t capacity, const char *text) {
    if (capacity) snprintf(error, capacity, "%s", text ? text : "unknown error");
}
static char load_error[320];

static void load(void) {
    /* The test's way to take the library away (or point at another build): documented in
       docs/decisions.md, "BMC sensors". */
    const char *path = getenv("SENSORWATCH_FREEIPMI_LIBRARY");
    if (!path || !*path) path = "libfreeipmi.so.17";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error,
                 "cannot load libfreeipmi (install the package libfreeipmi17): %s", dlerror());
        return;
    }
#define SYM(field, name) \
    if (!(*(void **)&fi.field = dlsym(lib, name))) { \
        snprintf(load_error, sizeof load_error, "%s has no %s (libfreeipmi17 is needed)", path, name); \
        fi.ctx_create = NULL; \
        return; \
    }
    SYM(ctx_create, "ipmi_ctx_create")
    SYM(ctx_errnum, "ipmi_ctx_errnum")
    SYM(ctx_errormsg, "ipmi_ctx_errormsg")
    SYM(open_lan, "ipmi_ctx_open_outofband_2_0")
    SYM(open_inband, "ipmi_ctx_open_inband")
    SYM(open_lan_1_5, "ipmi_ctx_open_outofband")
    SYM(get_auth_caps, "ipmi_cmd_get_channel_authentication_capabilities")
    SYM(ctx_close, "ipmi_ctx_close")
    SYM(ctx_destroy, "ipmi_ctx_destroy")
    SYM(sdr_create, "ipmi_sdr_ctx_create")
    SYM(sdr_destroy, "ipmi_sdr_ctx_destroy")
    SYM(sdr_errnum, "ipmi_sdr_ctx_errnum")
    SYM(sdr_errormsg, "ipmi_sdr_ctx_errormsg")
    SYM(cache_open, "ipmi_sdr_cache_open")
    SYM(cache_create, "ipmi_sdr_cache_create")
    SYM(cache_delete, "ipmi_sdr_cache_delete")
    SYM(cache_close, "ipmi_sdr_cache_close")
    SYM(cache_first, "ipmi_sdr_cache_first")
    SYM(cache_next, "ipmi_sdr_cache_next")
    SYM(cache_record_read, "ipmi_sdr_cache_record_read")
    SYM(parse_id_type, "ipmi_sdr_parse_record_id_and_type")
    SYM(parse_id_string, "ipmi_sdr_parse_id_string")
    SYM(parse_units, "ipmi_sdr_parse_sensor_units")
    SYM(parse_thresholds, "ipmi_sdr_parse_thresholds")
    SYM(parse_readable, "ipmi_sdr_parse_threshold_readable")
    SYM(parse_sensor_type, "ipmi_sdr_parse_sensor_type")
    SYM(parse_ert, "ipmi_sdr_parse_event_reading_type_code")
    SYM(parse_number, "ipmi_sdr_parse_sensor_number")
    SYM(get_reading, "ipmi_cmd_get_sensor_reading")
    SYM(get_flags, "ipmi_ctx_get_flags")
    SYM(set_flags, "ipmi_ctx_set_flags")
    SYM(interpret_create, "ipmi_interpret_ctx_create")
    SYM(interpret_sensor, "ipmi_interpret_sensor")
    SYM(interpret_sel, "ipmi_interpret_sel")
    SYM(generic_message, "ipmi_get_generic_event_message")
    SYM(sensor_type_message, "ipmi_get_sensor_type_message")
    SYM(parse_hysteresis, "ipmi_sdr_parse_hysteresis")
    SYM(parse_decoding, "ipmi_sdr_parse_sensor_decoding_data")
    SYM(decode_value, "ipmi_sensor_decode_value")
    SYM(get_thresholds, "ipmi_cmd_get_sensor_thresholds")
    SYM(obj_create, "fiid_obj_create")
    SYM(obj_destroy, "fiid_obj_destroy")
    SYM(obj_get, "fiid_obj_get")
    SYM(thresholds_rs, "tmpl_cmd_get_sensor_thresholds_rs")
    SYM(reading_rs, "tmpl_cmd_get_sensor_reading_rs")
    SYM(auth_caps_rs, "tmpl_cmd_get_channel_authentication_capabilities_rs")
    SYM(sel_create, "ipmi_sel_ctx_create")
    SYM(sel_destroy, "ipmi_sel_ctx_destroy")
    SYM(sel_errormsg, "ipmi_sel_ctx_errormsg")
    SYM(sel_parse, "ipmi_sel_parse")
    SYM(sel_read_record, "ipmi_sel_parse_read_record")
    SYM(sel_record_id, "ipmi_sel_parse_read_record_id")
    SYM(sel_timestamp, "ipmi_sel_parse_read_timestamp")
    SYM(sel_string, "ipmi_sel_parse_read_record_string")
#undef SYM
}

int sw_ipmi_library(char *error, size_t error_capacity) {
    pthread_once(&loaded_once, load);
    if (fi.ctx_create) return 0;
    say(error, error_capacity, load_error);
    return -1;
}

/* An SDR record kept in memory, with what a read needs of it parsed once: how a raw reading
   becomes a value (`factored`: the SDR's factors were parsed, for a threshold sensor's record;
   `decodes`: a full record of a linear, analog threshold sensor, as FreeIPMI's
   ipmi_sensor_read decodes them). */
struct kept_record {
    unsigned char bytes[256];
    unsigned length;
    struct sw_ipmi_record parsed;
    int factored, decodes;
    int8_t r_exponent, b_exponent;
    int16_t m, b;
    uint8_t linearization, format;
};

/* One interpretation context for the process, not one per session: it holds FreeIPMI's
   tables of sensor and SEL states (about 160 KiB), the same for every BMC. Its calls are
   lookups, serialized by the mutex. */
static ctx_t interpret;
static pthread_mutex_t interpret_lock = PTHREAD_MUTEX_INITIALIZER;

static ctx_t shared_interpret(void) {
    pthread_mutex_lock(&interpret_lock);
    if (!interpret) interpret = fi.interpret_create();
    pthread_mutex_unlock(&interpret_lock);
    return interpret;
}

/* A session keeps only what every poll needs: FreeIPMI's IPMI context, the SDR's records as
   bytes and one Get Sensor Reading answer that every read fills. The SDR context (about 65 KiB,
   most of it a table of entity counts sensorwatch never asks for) lives only while the SDR is
   loaded. Reads do not go through FreeIPMI's sensor-read context, which holds another SDR
   context: made and freed at every poll of every BMC, those 65 KiB kept malloc's arenas large
   (docs/decisions.md, "BMC sensors"). */
struct sw_ipmi {
    ctx_t ipmi;
    void *reading;
    struct kept_record *records;
    unsigned count;
};


/* The failure kind of the session's last error. */
static int failure_of(int errnum) {
    switch (errnum) {
    case IPMI_ERR_PASSWORD_INVALID: return SW_IPMI_PASSWORD;
    case IPMI_ERR_USERNAME_INVALID: return SW_IPMI_USER;
    case IPMI_ERR_PRIVILEGE_LEVEL_INSUFFICIENT:
    case IPMI_ERR_PRIVILEGE_LEVEL_CANNOT_BE_OBTAINED: return SW_IPMI_PRIVILEGE;
    case IPMI_ERR_PASSWORD_VERIFICATION_TIMEOUT:
    case IPMI_ERR_CONNECTION_TIMEOUT:
    case IPMI_ERR_SESSION_TIMEOUT:
    case IPMI_ERR_DRIVER_TIMEOUT:
    case IPMI_ERR_MESSAGE_TIMEOUT: return SW_IPMI_TIMEOUT;
    case IPMI_ERR_HOSTNAME_INVALID: return SW_IPMI_HOST;
    case IPMI_ERR_DEVICE_NOT_FOUND: return SW_IPMI_NO_DEVICE;
    default: return SW_IPMI_OTHER;
    }
}

/* A call's failure from FreeIPMI's error number and words. */
static void failed_with(int errnum, const char *words, int *failure, char *error, size_t capacity) {
    *failure = failure_of(errnum);
    say(error, capacity, words);
}

static void session_failed(sw_ipmi *s, int *failure, char *error, size_t capacity) {
    failed_with(fi.ctx_errnum(s->ipmi), fi.ctx_errormsg(s->ipmi), failure, error, capacity);
}

/* Whether the BMC at `host` answers within `timeout_ms`, asked without a session (Get Channel
   Authentication Capabilities, one round trip). The session's own timeout also covers the rest
   between polls, and FreeIPMI counts it during the open too: without this, a BMC that does
   not answer would fail its open an interval late. Only silence counts: an answer FreeIPMI
   finds wanting (a BMC that needs a workaround) is left to the open. 0, or -1 with
   `*failure` and why. */
static int answers(const char *host, unsigned timeout_ms, unsigned retransmit_ms, int *failure, char *error,
                   size_t capacity) {
    ctx_t c = fi.ctx_create();
    void *rs = c ? fi.obj_create(fi.auth_caps_rs) : NULL;
    int rc = -1;
    if (!rs) {
        *failure = SW_IPMI_OTHER;
        say(error, capacity, "out of memory");
    } else if (fi.open_lan_1_5(c, host, NULL, NULL, IPMI_AUTHENTICATION_TYPE_NONE, IPMI_PRIVILEGE_LEVEL_USER,
                               timeout_ms, retransmit_ms, 0, IPMI_FLAGS_NOSESSION) < 0 ||
               fi.get_auth_caps(c, IPMI_CHANNEL_NUMBER_CURRENT, IPMI_PRIVILEGE_LEVEL_USER, 1, rs) < 0) {
        *failure = failure_of(fi.ctx_errnum(c));
        say(error, capacity, fi.ctx_errormsg(c));
        if (*failure != SW_IPMI_TIMEOUT) rc = 0;
    } else {
        rc = 0;
    }
    if (rs) fi.obj_destroy(rs);
    if (c) {
        fi.ctx_close(c);
        fi.ctx_destroy(c);
    }
    return rc;
}

sw_ipmi *sw_ipmi_open(const char *host, const char *user, const char *password, int privilege,
                      int cipher_suite, unsigned timeout_ms, unsigned session_timeout_ms, unsigned retransmit_ms,
                      unsigned workarounds, int *failure, char *error, size_t error_capacity) {
    pthread_once(&loaded_once, load);
    if (!fi.ctx_create) {
        *failure = SW_IPMI_NO_LIBRARY;
        say(error, error_capacity, load_error);
        return NULL;
    }
    if (host && answers(host, timeout_ms, retransmit_ms, failure, error, error_capacity) < 0) return NULL;
    sw_ipmi *s = calloc(1, sizeof *s);
    if (!s || !(s->ipmi = fi.ctx_create())) {
        free(s);
        *failure = SW_IPMI_OTHER;
        say(error, error_capacity, "out of memory");
        return NULL;
    }
    int rc = host
        ? fi.open_lan(s->ipmi, host, user, password, NULL, 0, (uint8_t)privilege, (uint8_t)cipher_suite,
                      session_timeout_ms, retransmit_ms, workarounds, 0)
        : fi.open_inband(s->ipmi, IPMI_DEVICE_OPENIPMI, 0, 0, 0, NULL, 0, 0);
    if (rc < 0) {
        session_failed(s, failure, error, error_capacity);
        fi.ctx_destroy(s->ipmi);
        free(s);
        return NULL;
    }
    if (!shared_interpret() || !(s->reading = fi.obj_create(fi.reading_rs))) {
        sw_ipmi_close(s);
        *failure = SW_IPMI_OTHER;
        say(error, error_capacity, "out of memory");
        return NULL;
    }
    *failure = SW_IPMI_OK;
    return s;
}

void sw_ipmi_close(sw_ipmi *s) {
    if (!s) return;
    if (s->reading) fi.obj_destroy(s->reading);
    /* Close Session, so the BMC frees the slot now rather than at its own timeout. */
    fi.ctx_close(s->ipmi);
    fi.ctx_destroy(s->ipmi);
    free(s->records);
    free(s);
}

/* The thresholds as the BMC has them now (Get Sensor Thresholds: a threshold set since the
   SDR was written differs from it), converted with the SDR's factors; 0 when read. */
static int bmc_thresholds(sw_ipmi *s, const struct kept_record *k, struct sw_ipmi_record *r) {
    if (!k->factored) return -1;
    void *obj = fi.obj_create(fi.thresholds_rs);
    if (!obj) return -1;
    int rc = -1;
    if (fi.get_thresholds(s->ipmi, r->sensor_number, obj) == 0) {
        static const char *const names[6] = {
            "lower_non_critical_threshold", "lower_critical_threshold", "lower_non_recoverable_threshold",
            "upper_non_critical_threshold", "upper_critical_threshold", "upper_non_recoverable_threshold",
        };
        r->threshold_mask = 0;
        for (int i = 0; i < 6; i++) {
            char readable[80];
            uint64_t on = 0, raw = 0;
            snprintf(readable, sizeof readable, "readable_thresholds.%s", names[i]);
            double v;
            if (fi.obj_get(obj, readable, &on) == 1 && on && fi.obj_get(obj, names[i], &raw) == 1
                && fi.decode_value(k->r_exponent, k->b_exponent, k->m, k->b, k->linearization, k->format,
                                   (uint8_t)raw, &v) == 0) {
                r->thresholds[i] = v;
                r->threshold_mask |= 1u << i;
            }
        }
        rc = 0;
    }
    fi.obj_destroy(obj);
    return rc;
}

static void parse(sw_ipmi *s, ctx_t sdr, struct kept_record *k) {
    struct sw_ipmi_record *r = &k->parsed;
    memset(r, 0, sizeof *r);
    fi.parse_id_type(sdr, k->bytes, k->length, &r->record_id, &r->record_type);
    fi.parse_id_string(sdr, k->bytes, k->length, r->name, sizeof r->name - 1);
    fi.parse_sensor_type(sdr, k->bytes, k->length, &r->sensor_type);
    fi.parse_ert(sdr, k->bytes, k->length, &r->event_reading_type);
    fi.parse_number(sdr, k->bytes, k->length, &r->sensor_number);
    uint8_t percentage, modifier, rate, base, modifier_unit;
    if (fi.parse_units(sdr, k->bytes, k->length, &percentage, &modifier, &rate, &base, &modifier_unit) == 0)
        r->base_unit = base;
    r->is_threshold = r->event_reading_type == EVENT_READING_THRESHOLD && r->record_type == IPMI_SDR_FULL;
    /* A value only from an analog format (0-2: unsigned, 1's and 2's complement; 3 is none)
       and a linear sensor (0): FreeIPMI's ipmi_sensor_read gives no value otherwise either. */
    k->factored = r->is_threshold
        && fi.parse_decoding(sdr, k->bytes, k->length, &k->r_exponent, &k->b_exponent, &k->m, &k->b,
                             &k->linearization, &k->format) == 0;
    k->decodes = k->factored && k->format <= 2 && k->linearization == 0;
    if (r->is_threshold) {
        /* The SDR holds a byte for every threshold; only those it marks readable are set. */
        double *t[6] = {0};
        uint8_t readable[6] = {0};
        if (fi.parse_readable(sdr, k->bytes, k->length, &readable[0], &readable[1], &readable[2],
                              &readable[3], &readable[4], &readable[5]) < 0)
            memset(readable, 0, sizeof readable);
        if (fi.parse_thresholds(sdr, k->bytes, k->length, &t[0], &t[1], &t[2], &t[3], &t[4], &t[5]) == 0) {
            for (int i = 0; i < 6; i++) {
                if (t[i] && readable[i]) {
                    r->thresholds[i] = *t[i];
                    r->threshold_mask |= 1u << i;
                }
                free(t[i]);
            }
        }
        /* SPEC §23: the BMC's own thresholds at discovery, else the SDR's. */
        (void)bmc_thresholds(s, k, r);
        /* Hysteresis is a count of raw steps: its size in the unit is steps × M × 10^R for a
           linear sensor (the offset B cancels out of a difference). */
        uint8_t positive, negative;
        if (fi.parse_hysteresis(sdr, k->bytes, k->length, &positive, &negative) == 0 && k->factored
            && k->linearization == 0) {
            int8_t r_exp = k->r_exponent;
            double step = k->m;
            for (int i = 0; i < (r_exp < 0 ? -r_exp : r_exp); i++) step = r_exp < 0 ? step / 10 : step * 10;
            if (step < 0) step = -step;
            /* 0xFF: "unspecified" in the IPMI spec. */
            r->hysteresis_positive = positive == 0xFF ? 0 : positive * step;
            r->hysteresis_negative = negative == 0xFF ? 0 : negative * step;
        }
    }
}

/* Why the SDR could not be had: the BMC's own errors (a timeout checking the cache's age)
   name the session. */
static void sdr_failed(sw_ipmi *s, ctx_t sdr, int *failure, char *error, size_t capacity) {
    if (fi.ctx_errnum(s->ipmi) != 0) session_failed(s, failure, error, capacity);
    else { *failure = SW_IPMI_OTHER; say(error, capacity, fi.sdr_errormsg(sdr)); }
}

int sw_ipmi_load_sdr(sw_ipmi *s, const char *cache_path, int *failure, char *error, size_t error_capacity) {
    ctx_t sdr = fi.sdr_create();
    if (!sdr) {
        *failure = SW_IPMI_OTHER;
        say(error, error_capacity, "out of memory");
        return -1;
    }
    int open = 0;
    for (int attempt = 0; attempt < 2 && !open; attempt++) {
        if (fi.cache_open(sdr, s->ipmi, cache_path) == 0) {
            open = 1;
            break;
        }
        int e = fi.sdr_errnum(sdr);
        if (e == IPMI_SDR_ERR_CACHE_INVALID || e == IPMI_SDR_ERR_CACHE_OUT_OF_DATE) {
            fi.cache_delete(sdr, cache_path);
        } else if (e != IPMI_SDR_ERR_CACHE_READ_CACHE_DOES_NOT_EXIST) {
            sdr_failed(s, sdr, failure, error, error_capacity);
            fi.sdr_destroy(sdr);
            return -1;
        }
        if (fi.cache_create(sdr, s->ipmi, cache_path, IPMI_SDR_CACHE_CREATE_FLAGS_OVERWRITE, NULL, NULL) < 0) {
            sdr_failed(s, sdr, failure, error, error_capacity);
            fi.sdr_destroy(sdr);
            return -1;
        }
    }
    if (!open) {
        *failure = SW_IPMI_OTHER;
        say(error, error_capacity, fi.sdr_errormsg(sdr));
        fi.sdr_destroy(sdr);
        return -1;
    }
    free(s->records);
    s->records = NULL;
    s->count = 0;
    unsigned capacity = 0;
    if (fi.cache_first(sdr) == 0) {
        do {
            struct kept_record k;
            int n = fi.cache_record_read(sdr, k.bytes, sizeof k.bytes);
            if (n <= 0) continue;
            k.length = (unsigned)n;
            uint16_t id;
            uint8_t type;
            if (fi.parse_id_type(sdr, k.bytes, k.length, &id, &type) < 0) continue;
            /* Only sensors (full and compact records): device locators and the like are not. */
            if (type != IPMI_SDR_FULL && type != IPMI_SDR_COMPACT) continue;
            parse(s, sdr, &k);
            if (s->count == capacity) {
                capacity = capacity ? capacity * 2 : 16;
                struct kept_record *more = realloc(s->records, capacity * sizeof *more);
                if (!more) break;
                s->records = more;
            }
            s->records[s->count++] = k;
        } while (fi.cache_next(sdr) == 1);
    }
    fi.cache_close(sdr);
    fi.sdr_destroy(sdr);
    *failure = SW_IPMI_OK;
    return (int)s->count;
}

int sw_ipmi_record_at(sw_ipmi *s, unsigned index, struct sw_ipmi_record *out) {
    if (index >= s->count) return -1;
    *out = s->records[index].parsed;
    return 0;
}

/* Why the BMC answered a Get Sensor Reading with completion code `code` instead of a reading:
   the codes FreeIPMI's ipmi_sensor_read takes for a sensor without a reading now (its
   workarounds for boards that answer so), the BMC being busy, or NULL for another error. */
static const char *unavailable_because(uint64_t code) {
    switch (code) {
    case IPMI_COMP_CODE_NODE_BUSY: return "BMC busy";
    case 0xC9: /* parameter out of range */
    case 0xCB: /* requested sensor, data or record not present */
    case 0xCC: /* invalid data field in request */
    case 0xCD: /* command illegal for this sensor or record type */
    case 0xCE: /* command response could not be provided */
    case 0xD3: /* destination unavailable */
    case 0xD5: /* request parameter not supported */
        return "reading unavailable";
    default: return NULL;
    }
}

/* Why an answer holds no reading, by its own bits: the reading marked unavailable, or the
   sensor's scanning off; NULL when neither is set (or the answer lacks them). */
static const char *absent_because(void *answer) {
    uint64_t bit = 0;
    if (fi.obj_get(answer, "reading_state", &bit) == 1 && bit == 1) return "reading unavailable";
    if (fi.obj_get(answer, "sensor_scanning", &bit) == 1 && bit == 0) return "scanning disabled";
    return NULL;
}

int sw_ipmi_read(sw_ipmi *s, unsigned index, double *value, uint16_t *bitmask,
                 int *failure, char *error, size_t error_capacity) {
    if (index >= s->count) return -2;
    const struct kept_record *k = &s->records[index];
    *bitmask = 0;
    *failure = SW_IPMI_OTHER;
    /* Byte 5, the sensor's owner: bit 0 set for system software; else the IPMB address,
       which is the BMC's for every sensor it reads itself (others need bridging, which
       sensorwatch does not ask for, as FreeIPMI's tools do not by default). */
    uint8_t owner = k->length > 5 ? k->bytes[5] : IPMI_SLAVE_ADDRESS_BMC;
    if (owner & 1) {
        say(error, error_capacity, "sensor is system software");
        return -2;
    }
    if (owner != IPMI_SLAVE_ADDRESS_BMC) {
        say(error, error_capacity, "sensor not owned by BMC");
        return -2;
    }
    /* As ipmi_sensor_read does: without the check, an answer that leaves out the optional
       second byte of states is still a reading. */
    unsigned flags = 0;
    int flagged = fi.get_flags(s->ipmi, &flags) == 0 && fi.set_flags(s->ipmi, flags | IPMI_FLAGS_NO_VALID_CHECK) == 0;
    int rc = fi.get_reading(s->ipmi, k->parsed.sensor_number, s->reading);
    /* Taken before the flags are set back, which clears the context's error. */
    int errnum = fi.ctx_errnum(s->ipmi);
    const char *words = fi.ctx_errormsg(s->ipmi);
    if (flagged) fi.set_flags(s->ipmi, flags);
    if (rc < 0) {
        /* A session that timed out fails every later call: the caller reopens it. */
        if (failure_of(errnum) == SW_IPMI_TIMEOUT) {
            failed_with(errnum, words, failure, error, error_capacity);
            return -1;
        }
        uint64_t code = 0;
        const char *why = fi.obj_get(s->reading, "comp_code", &code) == 1 ? unavailable_because(code) : NULL;
        /* "Unspecified error" is believed when the answer's own bits say why. */
        if (!why && code == IPMI_COMP_CODE_UNSPECIFIED_ERROR) why = absent_because(s->reading);
        say(error, error_capacity, why ? why : words);
        return -2;
    }
    const char *absent = absent_because(s->reading);
    if (absent) {
        say(error, error_capacity, absent);
        return -2;
    }
    uint64_t low = 0, high = 0;
    int has_low = fi.obj_get(s->reading, "sensor_event_bitmask1", &low) == 1;
    int has_high = fi.obj_get(s->reading, "sensor_event_bitmask2", &high) == 1;
    if (has_high && !has_low) {
        say(error, error_capacity, "answer without its states");
        return -2;
    }
    *bitmask = (uint16_t)(low | (has_high ? high << 8 : 0));
    if (!k->decodes) {
        *failure = SW_IPMI_OK;
        return 0;
    }
    uint64_t raw = 0;
    if (fi.obj_get(s->reading, "sensor_reading", &raw) != 1
        || fi.decode_value(k->r_exponent, k->b_exponent, k->m, k->b, k->linearization, k->format, (uint8_t)raw,
                           value) < 0) {
        say(error, error_capacity, "reading cannot be decoded");
        return -2;
    }
    *failure = SW_IPMI_OK;
    return 1;
}

int sw_ipmi_state(sw_ipmi *s, uint8_t event_reading_type, uint8_t sensor_type, unsigned offset,
                  char *text, size_t text_capacity) {
    (void)s;
    unsigned state = 3;
    pthread_mutex_lock(&interpret_lock);
    if (fi.interpret_sensor(interpret, event_reading_type, sensor_type, (uint16_t)(1u << offset), &state) < 0)
        state = 3;
    pthread_mutex_unlock(&interpret_lock);
    int rc = event_reading_type == EVENT_READING_SPECIFIC
        ? fi.sensor_type_message(sensor_type, offset, text, (unsigned)text_capacity)
        : fi.generic_message(event_reading_type, offset, text, (unsigned)text_capacity);
    if (rc < 0 && text_capacity) snprintf(text, text_capacity, "state %u", offset);
    return (int)state;
}

struct sel_walk {
    sw_ipmi *session;
    ctx_t sel;
    void (*each)(void *, const struct sw_ipmi_sel_entry *);
    void *context;
    int count;
};

/* The name of the sensor a system event record is about, from the SDR records the session
   keeps (the SEL context is given no SDR context, which is not kept): the record's generator
   (byte 7) is the sensor's owner (SDR byte 5), its sensor number (byte 11) the sensor's (SDR
   byte 7), as FreeIPMI's own search matches them. NULL when no record matches. */
static const char *sensor_name(sw_ipmi *s, const unsigned char *record, unsigned length) {
    if (length < 16 || record[2] != 0x02) return NULL;
    for (unsigned i = 0; i < s->count; i++) {
        const struct kept_record *k = &s->records[i];
        if (k->length > 7 && k->bytes[5] == record[7] && k->bytes[7] == record[11]) return k->parsed.name;
    }
    return NULL;
}

static int sel_record(ctx_t sel, void *data) {
    struct sel_walk *w = data;
    struct sw_ipmi_sel_entry e;
    memset(&e, 0, sizeof e);
    unsigned char record[64];
    int n = fi.sel_read_record(sel, record, sizeof record);
    fi.sel_record_id(sel, NULL, 0, &e.record_id);
    if (fi.sel_timestamp(sel, NULL, 0, &e.timestamp) < 0) e.timestamp = 0;
    const char *name = n > 0 ? sensor_name(w->session, record, (unsigned)n) : NULL;
    if (name) snprintf(e.sensor, sizeof e.sensor, "%s", name);
    else if (fi.sel_string(sel, "%s", NULL, 0, e.sensor, sizeof e.sensor - 1, 0) < 0) e.sensor[0] = 0;
    if (fi.sel_string(sel, "%e", NULL, 0, e.event, sizeof e.event - 1, 0) < 0) e.event[0] = 0;
    e.state = 3;
    pthread_mutex_lock(&interpret_lock);
    if (n > 0 && fi.interpret_sel(interpret, record, (unsigned)n, &e.state) < 0) e.state = 3;
    pthread_mutex_unlock(&interpret_lock);
    w->each(w->context, &e);
    w->count++;
    return 0;
}

int sw_ipmi_sel(sw_ipmi *s, uint16_t start, void (*each)(void *, const struct sw_ipmi_sel_entry *), void *context,
                int *failure, char *error, size_t error_capacity) {
    ctx_t sel = fi.sel_create(s->ipmi, NULL);
    if (!sel) {
        *failure = SW_IPMI_OTHER;
        say(error, error_capacity, "out of memory");
        return -1;
    }
    struct sel_walk w = { s, sel, each, context, 0 };
    int rc = fi.sel_parse(sel, start, 0xFFFF, sel_record, &w);
    if (rc < 0) {
        if (failure_of(fi.ctx_errnum(s->ipmi)) == SW_IPMI_TIMEOUT) session_failed(s, failure, error, error_capacity);
        else { *failure = SW_IPMI_OTHER; say(error, error_capacity, fi.sel_errormsg(sel)); }
        fi.sel_destroy(sel);
        return -1;
    }
    fi.sel_destroy(sel);
    *failure = SW_IPMI_OK;
    return w.count;
}
