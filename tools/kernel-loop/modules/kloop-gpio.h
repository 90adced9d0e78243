/* SPDX-License-Identifier: GPL-2.0 */
/* kloop: a GPIO chip found by its label, on Debian 12's 6.1 and Debian 13's 6.12 alike */
#ifndef KLOOP_GPIO_H
#define KLOOP_GPIO_H
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/string.h>
#include <linux/version.h>

/* A GPIO chip found by label, and the descriptor of one of its lines: gpiochip_find() until 6.6 (Debian 12's
 * 6.1), gpio_device_find() from 6.7 (Debian 13's 6.12). kcap_chip_put() drops what kcap_chip_find() took. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
static inline int kcap_match_label(struct gpio_chip *gc, const void *data)
{
	return gc->label && !strcmp(gc->label, data);
}
typedef struct gpio_device kcap_chip;
static inline kcap_chip *kcap_chip_find(const char *label) { return gpio_device_find(label, kcap_match_label); }
static inline void kcap_chip_put(kcap_chip *c) { if (c) gpio_device_put(c); }
static inline unsigned int kcap_chip_ngpio(kcap_chip *c) { return gpio_device_get_chip(c)->ngpio; }
static inline int kcap_chip_base(kcap_chip *c) { return gpio_device_get_base(c); }
static inline struct gpio_desc *kcap_chip_desc(kcap_chip *c, unsigned int line) { return gpio_device_get_desc(c, line); }
#else
static inline int kcap_match_label(struct gpio_chip *gc, void *data)
{
	return gc->label && !strcmp(gc->label, data);
}
typedef struct gpio_chip kcap_chip;
static inline kcap_chip *kcap_chip_find(const char *label) { return gpiochip_find((void *)label, kcap_match_label); }
static inline void kcap_chip_put(kcap_chip *c) { }
static inline unsigned int kcap_chip_ngpio(kcap_chip *c) { return c->ngpio; }
static inline int kcap_chip_base(kcap_chip *c) { return c->base; }
static inline struct gpio_desc *kcap_chip_desc(kcap_chip *c, unsigned int line) { return gpio_to_desc(c->base + line); }
#endif
#endif
