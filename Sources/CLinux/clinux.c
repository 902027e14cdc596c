#include <malloc.h>
#include "clinux.h"

int sw_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}
