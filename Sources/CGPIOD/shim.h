#ifndef DESKPET_CGPIOD_SHIM_H
#define DESKPET_CGPIOD_SHIM_H
/* libgpiod v1 (1.6.x) C API: chips, lines, edge events with kernel timestamps. */
#include <gpiod.h>
#endif
