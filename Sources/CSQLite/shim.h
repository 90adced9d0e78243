#ifndef DESKPET_CSQLITE_SHIM_H
#define DESKPET_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
