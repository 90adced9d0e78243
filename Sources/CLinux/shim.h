#ifndef DESKPET_CLINUX_SHIM_H
#define DESKPET_CLINUX_SHIM_H
/* Linux kernel interfaces Glibc's Swift module does not carry: epoll, evdev (struct input_event),
   signalfd (the daemon's signals on a descriptor), timerfd (the web transport's timeouts), getrandom (PetLink's pairing secrets). */
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/input.h>
#include <sys/signalfd.h>
#include <sys/random.h>
#include <sys/un.h>
#include <sys/timerfd.h>

/* ioctl is variadic, which Swift cannot call: one wrapper per argument kind. */
static inline int deskpet_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
/* Socket types by value: Glibc's Swift overlay does not always export the enum to every module. */
static inline int deskpet_sock_dgram(void) { return SOCK_DGRAM; }
static inline int deskpet_ioctl_int(int fd, unsigned long request, int arg) { return ioctl(fd, request, arg); }
#endif
