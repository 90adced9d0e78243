#ifndef DESKPET_CMOSQUITTO_SHIM_H
#define DESKPET_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#endif
