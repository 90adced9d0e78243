// SPDX-License-Identifier: GPL-2.0
/*
 * kloop-gpio-keys: create a "gpio-keys" platform device on lines of a GPIO chip found by label (say a
 * gpio-sim bank), so Linux's own gpio_keys driver turns line edges into evdev key events. x86 has no
 * device tree, and gpio_keys in 6.1 reads buttons from platform data with global GPIO numbers only:
 * this module computes them.   modprobe kloop-gpio-keys chip_label=pet-buttons lines=0,1,2 codes=30,48,46
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/gpio/driver.h>
#include <linux/gpio_keys.h>
#include <linux/input.h>
#include <linux/kmod.h>
#include <linux/string.h>
#include "kloop-gpio.h"

static char *chip_label = "";
module_param(chip_label, charp, 0444);
MODULE_PARM_DESC(chip_label, "label of the GPIO chip (a gpio-sim bank's label)");
static unsigned int lines[16]; static int n_lines;
module_param_array(lines, uint, &n_lines, 0444);
MODULE_PARM_DESC(lines, "line offsets, one per key");
static unsigned int codes[16]; static int n_codes;
module_param_array(codes, uint, &n_codes, 0444);
MODULE_PARM_DESC(codes, "key codes (linux/input-event-codes.h), one per line");
static bool active_low = true;
module_param(active_low, bool, 0444);
MODULE_PARM_DESC(active_low, "pressed = line low (default 1: buttons to ground with pull-ups)");
static unsigned int debounce_ms = 5;
module_param(debounce_ms, uint, 0444);
MODULE_PARM_DESC(debounce_ms, "gpio_keys debounce interval (default 5, as in device trees)");
static char *name = "gpio-keys";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "input device name");

static struct gpio_keys_button buttons[16];
static struct platform_device *pdev;

static int __init kgk_init(void)
{
	struct gpio_keys_platform_data pdata = { 0 };
	kcap_chip *gc;
	int i, base, ngpio;

	if (!*chip_label || !n_lines || n_lines != n_codes) {
		pr_err("kloop-gpio-keys: need chip_label=, lines= and as many codes=\n");
		return -EINVAL;
	}
	gc = kcap_chip_find(chip_label);
	if (!gc) {
		pr_err("kloop-gpio-keys: no GPIO chip labelled %s\n", chip_label);
		return -ENODEV;
	}
	base = kcap_chip_base(gc); ngpio = kcap_chip_ngpio(gc);
	kcap_chip_put(gc);
	for (i = 0; i < n_lines; i++) {
		if (lines[i] >= ngpio) return -EINVAL;
		buttons[i].gpio = base + lines[i];
		buttons[i].code = codes[i];
		buttons[i].type = EV_KEY;
		buttons[i].active_low = active_low;
		buttons[i].debounce_interval = debounce_ms;
		buttons[i].desc = name;
	}
	pdata.buttons = buttons;
	pdata.nbuttons = n_lines;
	pdata.name = name;
	request_module("gpio_keys");
	pdev = platform_device_register_data(NULL, "gpio-keys", PLATFORM_DEVID_AUTO, &pdata, sizeof(pdata));
	return PTR_ERR_OR_ZERO(pdev);
}

static void __exit kgk_exit(void)
{
	platform_device_unregister(pdev);
}

module_init(kgk_init);
module_exit(kgk_exit);
MODULE_DESCRIPTION("kloop: gpio-keys on a GPIO chip found by label");
MODULE_LICENSE("GPL");
