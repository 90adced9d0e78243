#ifndef DESKPET_CBLUETOOTH_SHIM_H
#define DESKPET_CBLUETOOTH_SHIM_H
/* BlueZ libbluetooth: address helpers, HCI and L2CAP socket definitions. */
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
#endif
