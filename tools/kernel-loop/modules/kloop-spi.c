// SPDX-License-Identifier: GPL-2.0
/*
 * kloop-spi: a software SPI controller (no hardware) with /dev/spidev<bus>.0 on it, recording every
 * transfer so a test can check the bytes a panel driver sent through spidev.
 *   /sys/kernel/debug/kloop-spi/log   one line per transfer: "<msg> len=<n> speed=<hz> bpw=<b>[ gpio=<levels>]: <hex>"
 *   /sys/kernel/debug/kloop-spi/data  all bytes sent (MOSI), concatenated
 * Write anything to either file to empty both. MISO reads as miso_fill. With watch_chip=<label> and
 * watch_lines=<offsets>, the levels of those GPIO lines (D/C, RST...) at each transfer are logged.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include "kloop-capture.h"

static int bus_num;
module_param(bus_num, int, 0444);
MODULE_PARM_DESC(bus_num, "SPI bus number (default 0: /dev/spidev0.0)");
static unsigned int max_speed_hz = 62500000;
module_param(max_speed_hz, uint, 0444);
static unsigned int miso_fill;
module_param(miso_fill, uint, 0444);
MODULE_PARM_DESC(miso_fill, "byte value received on MISO (default 0x00)");
static unsigned int buf_kib = 4096;
module_param(buf_kib, uint, 0444);
MODULE_PARM_DESC(buf_kib, "capture size in KiB of data (log gets 3x; default 4096)");
static char *watch_chip = "";
module_param(watch_chip, charp, 0444);
MODULE_PARM_DESC(watch_chip, "label of the GPIO chip with the lines to log (e.g. a gpio-sim bank)");
static unsigned int watch_lines[8]; static int n_watch;
module_param_array(watch_lines, uint, &n_watch, 0444);
MODULE_PARM_DESC(watch_lines, "offsets of GPIO lines whose levels are logged with each transfer (e.g. D/C,RST)");

static struct kcap cap;
static struct platform_device *pdev;
static struct spi_controller *ctlr;
static struct spi_device *spidev;

static int kspi_prepare_message(struct spi_controller *c, struct spi_message *m)
{
	mutex_lock(&cap.lock); cap.seq++; mutex_unlock(&cap.lock);
	return 0;
}

static int kspi_transfer_one(struct spi_controller *c, struct spi_device *spi, struct spi_transfer *t)
{
	mutex_lock(&cap.lock);
	kcap_printf(&cap, "%llu len=%u speed=%u bpw=%u", cap.seq, t->len, t->speed_hz, t->bits_per_word);
	kcap_gpio_levels(&cap, watch_chip, watch_lines, n_watch);
	kcap_printf(&cap, ":");
	if (t->tx_buf) { kcap_hex(&cap, t->tx_buf, t->len); kcap_data(&cap, t->tx_buf, t->len); }
	else kcap_printf(&cap, " (rx only)");
	kcap_printf(&cap, "\n");
	mutex_unlock(&cap.lock);
	if (t->rx_buf) memset(t->rx_buf, miso_fill, t->len);
	return 0;
}

static int __init kspi_init(void)
{
	int err = kcap_init(&cap, "kloop-spi", buf_kib);
	if (err) return err;
	pdev = platform_device_register_simple("kloop-spi", -1, NULL, 0);
	if (IS_ERR(pdev)) { err = PTR_ERR(pdev); goto out_cap; }
	ctlr = spi_alloc_master(&pdev->dev, 0);
	if (!ctlr) { err = -ENOMEM; goto out_pdev; }
	ctlr->bus_num = bus_num;
	ctlr->num_chipselect = 1;
	ctlr->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_3WIRE | SPI_NO_CS;
	ctlr->bits_per_word_mask = SPI_BPW_RANGE_MASK(1, 32);
	ctlr->max_speed_hz = max_speed_hz;
	ctlr->min_speed_hz = 1000;
	ctlr->prepare_message = kspi_prepare_message;
	ctlr->transfer_one = kspi_transfer_one;
	err = spi_register_controller(ctlr);
	if (err) { spi_controller_put(ctlr); goto out_pdev; }
	/* spidev refuses the plain name "spidev" as a device id; driver_override binds it anyway */
	spidev = spi_alloc_device(ctlr);
	if (!spidev) { err = -ENOMEM; goto out_ctlr; }
#if defined(SPI_CS_CNT_MAX)   /* 6.8+: an array of chip selects, the unused ones marked (s8)-1, as spi_new_device() does */
	{ int i; for (i = 1; i < SPI_CS_CNT_MAX; i++) spi_set_chipselect(spidev, i, (u8)-1); }
	spi_set_chipselect(spidev, 0, 0);
	spidev->cs_index_mask = BIT(0);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	spi_set_chipselect(spidev, 0, 0);
#else
	spidev->chip_select = 0;
#endif
	spidev->max_speed_hz = max_speed_hz;
	spidev->mode = SPI_MODE_0;
	spidev->bits_per_word = 8;
	strscpy(spidev->modalias, "spidev", sizeof(spidev->modalias));
#ifdef KLOOP_DEVICE_DRIVER_OVERRIDE
	err = device_set_driver_override(&spidev->dev, "spidev");
#else
	err = driver_set_override(&spidev->dev, &spidev->driver_override, "spidev", 6);
#endif
	if (!err) err = spi_add_device(spidev);
	if (err) { spi_dev_put(spidev); goto out_ctlr; }
	pr_info("kloop-spi: bus %d ready\n", ctlr->bus_num);
	return 0;
out_ctlr:
	spi_unregister_controller(ctlr);
out_pdev:
	platform_device_unregister(pdev);
out_cap:
	kcap_exit(&cap);
	return err;
}

static void __exit kspi_exit(void)
{
	spi_unregister_device(spidev);
	spi_unregister_controller(ctlr);
	platform_device_unregister(pdev);
	kcap_exit(&cap);
}

module_init(kspi_init);
module_exit(kspi_exit);
MODULE_DESCRIPTION("kloop: recording software SPI controller with spidev");
MODULE_LICENSE("GPL");
