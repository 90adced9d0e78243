#ifndef DESKPET_CLINUX_SHIM_H
#define DESKPET_CLINUX_SHIM_H
/* Linux kernel interfaces Glibc's Swift module does not carry: epoll, evdev (struct input_event),
   signalfd (the daemon's signals on a descriptor), timerfd (the web transport's timeouts), getrandom (PetLink's pairing secrets),
   the GPIO character device (uAPI v2). */
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/input.h>
#include <sys/signalfd.h>
#include <sys/random.h>
#include <sys/un.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <stddef.h>
/* The GPIO character device, uAPI v2 (Linux 5.10 and later): DeskPet's GPIO backend talks to it
   directly, without libgpiod (docs/architecture.md, "GPIO: the kernel's uAPI v2"). */
#include <linux/gpio.h>

/* ioctl is variadic, which Swift cannot call: one wrapper per argument kind. */
static inline int deskpet_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
/* Socket types by value: Glibc's Swift overlay does not always export the enum to every module. */
static inline int deskpet_sock_dgram(void) { return SOCK_DGRAM; }
static inline int deskpet_ioctl_int(int fd, unsigned long request, int arg) { return ioctl(fd, request, arg); }

/* GPIO uAPI v2 ioctl numbers (function-like macros do not reach Swift; GPIOUAPI.swift computes the
   same numbers and PetLinuxTests compares them). */
static inline unsigned long deskpet_gpio_get_chipinfo_ioctl(void) { return GPIO_GET_CHIPINFO_IOCTL; }
static inline unsigned long deskpet_gpio_v2_get_lineinfo_ioctl(void) { return GPIO_V2_GET_LINEINFO_IOCTL; }
static inline unsigned long deskpet_gpio_v2_get_line_ioctl(void) { return GPIO_V2_GET_LINE_IOCTL; }
static inline unsigned long deskpet_gpio_v2_line_get_values_ioctl(void) { return GPIO_V2_LINE_GET_VALUES_IOCTL; }
static inline unsigned long deskpet_gpio_v2_line_set_values_ioctl(void) { return GPIO_V2_LINE_SET_VALUES_IOCTL; }
static inline unsigned long deskpet_gpio_v2_line_set_config_ioctl(void) { return GPIO_V2_LINE_SET_CONFIG_IOCTL; }

/* The layout GPIOUAPI.swift encodes and decodes by hand: the uAPI is the same on every architecture
   (fixed-width fields, 64-bit values 8-byte aligned), so a header that disagrees stops the build. */
_Static_assert(sizeof(struct gpiochip_info) == 68, "gpiochip_info");
_Static_assert(sizeof(struct gpio_v2_line_attribute) == 16, "gpio_v2_line_attribute");
_Static_assert(offsetof(struct gpio_v2_line_attribute, flags) == 8, "gpio_v2_line_attribute.flags");
_Static_assert(sizeof(struct gpio_v2_line_config_attribute) == 24, "gpio_v2_line_config_attribute");
_Static_assert(offsetof(struct gpio_v2_line_config_attribute, mask) == 16, "gpio_v2_line_config_attribute.mask");
_Static_assert(sizeof(struct gpio_v2_line_config) == 272, "gpio_v2_line_config");
_Static_assert(offsetof(struct gpio_v2_line_config, num_attrs) == 8, "gpio_v2_line_config.num_attrs");
_Static_assert(offsetof(struct gpio_v2_line_config, attrs) == 32, "gpio_v2_line_config.attrs");
_Static_assert(sizeof(struct gpio_v2_line_request) == 592, "gpio_v2_line_request");
_Static_assert(offsetof(struct gpio_v2_line_request, consumer) == 256, "gpio_v2_line_request.consumer");
_Static_assert(offsetof(struct gpio_v2_line_request, config) == 288, "gpio_v2_line_request.config");
_Static_assert(offsetof(struct gpio_v2_line_request, num_lines) == 560, "gpio_v2_line_request.num_lines");
_Static_assert(offsetof(struct gpio_v2_line_request, event_buffer_size) == 564, "gpio_v2_line_request.event_buffer_size");
_Static_assert(offsetof(struct gpio_v2_line_request, fd) == 588, "gpio_v2_line_request.fd");
_Static_assert(sizeof(struct gpio_v2_line_values) == 16, "gpio_v2_line_values");
_Static_assert(sizeof(struct gpio_v2_line_info) == 256, "gpio_v2_line_info");
_Static_assert(offsetof(struct gpio_v2_line_info, consumer) == 32, "gpio_v2_line_info.consumer");
_Static_assert(offsetof(struct gpio_v2_line_info, offset) == 64, "gpio_v2_line_info.offset");
_Static_assert(offsetof(struct gpio_v2_line_info, flags) == 72, "gpio_v2_line_info.flags");
_Static_assert(sizeof(struct gpio_v2_line_event) == 48, "gpio_v2_line_event");
_Static_assert(offsetof(struct gpio_v2_line_event, id) == 8, "gpio_v2_line_event.id");
_Static_assert(offsetof(struct gpio_v2_line_event, offset) == 12, "gpio_v2_line_event.offset");
_Static_assert(offsetof(struct gpio_v2_line_event, seqno) == 16, "gpio_v2_line_event.seqno");
_Static_assert(offsetof(struct gpio_v2_line_event, line_seqno) == 20, "gpio_v2_line_event.line_seqno");
#endif
