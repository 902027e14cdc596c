/* libcurl's declarations only: nothing links libcurl. CurlLoader opens it with dlopen when
   `sensorwatch notify` first needs HTTP, so no other subcommand loads it (or its TLS, SSH,
   LDAP and Kerberos libraries): `run`'s resident memory stays as it was. */
#include <curl/curl.h>
