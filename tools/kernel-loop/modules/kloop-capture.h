/* SPDX-License-Identifier: GPL-2.0 */
/* kloop capture buffer: what a test bus saw, as debugfs files <dir>/log (text, one line per transfer)
 * and <dir>/data (the bytes written, concatenated). Writing anything to either file empties both. */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "kloop-gpio.h"

struct kcap {
	struct mutex lock;
	char *log; size_t log_len, log_size;
	u8 *data; size_t data_len, data_size;
	bool overflow;
	u64 seq;
	struct dentry *dir;
};

static void kcap_printf(struct kcap *c, const char *fmt, ...) __printf(2, 3);
static void kcap_printf(struct kcap *c, const char *fmt, ...)
{
	va_list ap; int n;
	if (c->overflow) return;
	va_start(ap, fmt);
	n = vsnprintf(c->log + c->log_len, c->log_size - c->log_len, fmt, ap);
	va_end(ap);
	if (n >= c->log_size - c->log_len) { c->overflow = true; return; }
	c->log_len += n;
}

static void kcap_hex(struct kcap *c, const u8 *buf, size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i;
	if (c->overflow) return;
	if (c->log_len + 3 * len + 2 > c->log_size) { c->overflow = true; return; }
	for (i = 0; i < len; i++) {
		c->log[c->log_len++] = ' ';
		c->log[c->log_len++] = hexd[buf[i] >> 4];
		c->log[c->log_len++] = hexd[buf[i] & 15];
	}
}

static void kcap_data(struct kcap *c, const u8 *buf, size_t len)
{
	if (c->data_len + len > c->data_size) { c->overflow = true; return; }
	memcpy(c->data + c->data_len, buf, len);
	c->data_len += len;
}

static ssize_t kcap_read(struct file *f, char __user *ubuf, size_t n, loff_t *pos)
{
	struct kcap *c = f->f_inode->i_private;
	bool is_log = !strcmp(f->f_path.dentry->d_name.name, "log");
	ssize_t r;
	mutex_lock(&c->lock);
	if (is_log && c->overflow && !*pos) {  /* make an overflow impossible to miss */
		r = -EOVERFLOW;
	} else if (is_log) {
		r = simple_read_from_buffer(ubuf, n, pos, c->log, c->log_len);
	} else {
		r = simple_read_from_buffer(ubuf, n, pos, c->data, c->data_len);
	}
	mutex_unlock(&c->lock);
	return r;
}

static ssize_t kcap_write(struct file *f, const char __user *ubuf, size_t n, loff_t *pos)
{
	struct kcap *c = f->f_inode->i_private;
	mutex_lock(&c->lock);
	c->log_len = c->data_len = 0; c->overflow = false;
	mutex_unlock(&c->lock);
	return n;
}

static const struct file_operations kcap_fops = {
	.owner = THIS_MODULE, .open = simple_open, .read = kcap_read, .write = kcap_write,
	.llseek = default_llseek,
};

static int kcap_init(struct kcap *c, const char *name, size_t kib)
{
	mutex_init(&c->lock);
	c->log_size = kib * 1024 * 3; c->data_size = kib * 1024;
	c->log = vmalloc(c->log_size); c->data = vmalloc(c->data_size);
	if (!c->log || !c->data) { vfree(c->log); vfree(c->data); return -ENOMEM; }
	c->dir = debugfs_create_dir(name, NULL);
	debugfs_create_file("log", 0600, c->dir, c, &kcap_fops);
	debugfs_create_file("data", 0600, c->dir, c, &kcap_fops);
	return 0;
}

static void kcap_exit(struct kcap *c)
{
	debugfs_remove(c->dir);
	vfree(c->log); vfree(c->data);
}

/* Levels of GPIO lines on a chip found by label (say the panel's D/C and RST outputs on a gpio-sim
 * bank that the program under test drives), read at each transfer. */
static void __maybe_unused kcap_gpio_levels(struct kcap *c, const char *label, const unsigned int *lines, int n)
{
	kcap_chip *gc;
	int i;
	if (!n || !label || !*label) return;
	gc = kcap_chip_find(label);
	kcap_printf(c, " gpio=");
	for (i = 0; i < n; i++) {
		struct gpio_desc *d = (gc && lines[i] < kcap_chip_ngpio(gc)) ? kcap_chip_desc(gc, lines[i]) : NULL;
		int v = (d && !IS_ERR(d)) ? gpiod_get_raw_value_cansleep(d) : -1;
		kcap_printf(c, "%c", v < 0 ? '?' : '0' + v);
	}
	kcap_chip_put(gc);
}
