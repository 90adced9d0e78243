// SPDX-License-Identifier: GPL-2.0
/*
 * kloop-i2c: a software I2C adapter (no hardware) on which devices at the given addresses ACK and
 * every message is recorded, so a test can check what a driver sent through /dev/i2c-N (modprobe i2c-dev).
 * Plain I2C messages (write()/read(), I2C_RDWR) and SMBus calls (emulated) both work.
 *   /sys/kernel/debug/kloop-i2c/log   one line per message: "<xfer> addr=0x3c w len=<n>: <hex>" (reads: r)
 *   /sys/kernel/debug/kloop-i2c/data  all bytes written, concatenated
 * Write anything to either file to empty both. Reads return read_fill. Other addresses NACK (-ENXIO).
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/i2c.h>
#include "kloop-capture.h"

static int bus = -1;
module_param(bus, int, 0444);
MODULE_PARM_DESC(bus, "I2C bus number (default: first free; 1 gives /dev/i2c-1 as on a Raspberry Pi)");
static unsigned short addrs[8] = { 0x3c }; static int n_addrs = 1;
module_param_array(addrs, ushort, &n_addrs, 0444);
MODULE_PARM_DESC(addrs, "7-bit addresses that ACK (default 0x3c)");
static unsigned int read_fill;
module_param(read_fill, uint, 0444);
static unsigned int buf_kib = 4096;
module_param(buf_kib, uint, 0444);

static struct kcap cap;
static struct platform_device *pdev;
static struct i2c_adapter adap;

static bool present(u16 a)
{
	int i;
	for (i = 0; i < n_addrs; i++) if (addrs[i] == a) return true;
	return false;
}

static int ki2c_xfer(struct i2c_adapter *a, struct i2c_msg *msgs, int num)
{
	int i;
	for (i = 0; i < num; i++) if (!present(msgs[i].addr)) return -ENXIO;
	mutex_lock(&cap.lock);
	cap.seq++;
	for (i = 0; i < num; i++) {
		struct i2c_msg *m = &msgs[i];
		bool rd = m->flags & I2C_M_RD;
		kcap_printf(&cap, "%llu addr=0x%02x %c len=%u:", cap.seq, m->addr, rd ? 'r' : 'w', m->len);
		if (rd) memset(m->buf, read_fill, m->len);
		else { kcap_hex(&cap, m->buf, m->len); kcap_data(&cap, m->buf, m->len); }
		kcap_printf(&cap, "\n");
	}
	mutex_unlock(&cap.lock);
	return num;
}

static u32 ki2c_func(struct i2c_adapter *a)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm ki2c_algo = { .master_xfer = ki2c_xfer, .functionality = ki2c_func };

static int __init ki2c_init(void)
{
	int err = kcap_init(&cap, "kloop-i2c", buf_kib);
	if (err) return err;
	pdev = platform_device_register_simple("kloop-i2c", -1, NULL, 0);
	if (IS_ERR(pdev)) { err = PTR_ERR(pdev); goto out_cap; }
	adap.owner = THIS_MODULE;
	adap.algo = &ki2c_algo;
	adap.dev.parent = &pdev->dev;
	adap.nr = bus;
	strscpy(adap.name, "kloop-i2c", sizeof(adap.name));
	err = bus >= 0 ? i2c_add_numbered_adapter(&adap) : i2c_add_adapter(&adap);
	if (err) goto out_pdev;
	pr_info("kloop-i2c: bus %d ready\n", adap.nr);
	return 0;
out_pdev:
	platform_device_unregister(pdev);
out_cap:
	kcap_exit(&cap);
	return err;
}

static void __exit ki2c_exit(void)
{
	i2c_del_adapter(&adap);
	platform_device_unregister(pdev);
	kcap_exit(&cap);
}

module_init(ki2c_init);
module_exit(ki2c_exit);
MODULE_DESCRIPTION("kloop: recording software I2C adapter");
MODULE_LICENSE("GPL");
