#ifndef SENSORWATCH_CLINUX_H
#define SENSORWATCH_CLINUX_H
#include <stddef.h>

/// glibc's malloc_trim(3), which Swift's Glibc module does not import: gives free heap
/// memory back to the kernel, also from the middle of the heap. Returns 1 if any was.
int sw_malloc_trim(size_t pad);

#endif
