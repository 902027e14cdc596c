#ifndef CURL_LOADER_H
#define CURL_LOADER_H

#include <stddef.h>

/* One HTTP request (`method` POST with the JSON body, or another such as DELETE without a
   body; NULL is POST) through libcurl, which is loaded (dlopen "libcurl.so.4")
   on the first call. Blocks its thread until the answer, `timeout_ms`, or until `*abort_flag`
   becomes non-zero (set it with sw_curl_abort from another thread).
   Returns 0 with *status and the start of the answer's body in `body_out` (NUL-terminated),
   or -1 with the reason in words in `error` (NUL-terminated).
   `user` (NULL: none) and `password` (NULL: empty) go as HTTP basic authentication; `url`
   carries no user information of its own. */
int sw_curl_post_json(const char *method, const char *url, const char *user, const char *password,
                      const char *json, size_t json_length, long timeout_ms,
                      int *abort_flag, long *status, char *body_out, size_t body_capacity,
                      char *error, size_t error_capacity);

/* Asks a running sw_curl_post_json to give up (checked while it runs). */
void sw_curl_abort(int *abort_flag);

#endif
