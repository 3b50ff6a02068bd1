// SPDX-License-Identifier: GPL-2.0
/*
 * mmiotouch: drive real QEMU devices through MMIO in a known sequence, so
 * that the guest tests can compare mmiotrace's output with what was done.
 *
 * Targets (one mapping each at a time):
 *   edu  BAR0 of QEMU's edu device (1234:11e8)
 *   vga  BAR0 (framebuffer) of QEMU's std VGA (1234:1111)
 *   isa  the legacy VGA window in the ISA hole, physical 0xa0000
 *
 * Commands, one per write to /sys/kernel/debug/mmiotouch/ctl:
 *   map TARGET [OFFSET SIZE]          ioremap a window (default 0 0x1000)
 *   unmap TARGET                      iounmap it
 *   read TARGET WIDTH OFFSET          WIDTH is 1, 2, 4 or 8 bytes
 *   write TARGET WIDTH OFFSET VALUE
 *   repeat COUNT read|write ...       the same access COUNT times
 *   warn | panic                      WARN() or panic() (harness self-tests)
 *
 * "value" holds the last value read, "elapsed_ns" the duration of the last
 * read/write/repeat command. Any malformed command fails with EINVAL and
 * changes nothing.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define CMD_MAX		128
#define DEFAULT_WINDOW	0x1000
#define ISA_VGA_START	0xa0000
#define ISA_VGA_SIZE	0x20000

struct target {
	const char *name;
	unsigned short vendor, device;	/* PCI IDs, 0 for a fixed range */
	resource_size_t fixed_start, fixed_size;
	void __iomem *base;		/* mapped window, NULL when unmapped */
	resource_size_t size;
	struct pci_dev *pdev;
};

static struct target targets[] = {
	{ .name = "edu", .vendor = 0x1234, .device = 0x11e8 },
	{ .name = "vga", .vendor = 0x1234, .device = 0x1111 },
	{ .name = "isa", .fixed_start = ISA_VGA_START,
	  .fixed_size = ISA_VGA_SIZE },
};

/* Serializes all commands and protects targets[], last_value, elapsed_ns. */
static DEFINE_MUTEX(touch_mutex);
static u64 last_value;
static u64 elapsed_ns;
static struct dentry *touch_dir;

static struct target *find_target(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

/* Physical extent of a target's region: its PCI BAR0 or the fixed range. */
static int target_region(struct target *t, resource_size_t *start,
			 resource_size_t *size)
{
	if (!t->vendor) {
		*start = t->fixed_start;
		*size = t->fixed_size;
		return 0;
	}
	t->pdev = pci_get_device(t->vendor, t->device, NULL);
	if (!t->pdev)
		return -ENODEV;
	if (!(pci_resource_flags(t->pdev, 0) & IORESOURCE_MEM)) {
		pci_dev_put(t->pdev);
		t->pdev = NULL;
		return -ENODEV;
	}
	*start = pci_resource_start(t->pdev, 0);
	*size = pci_resource_len(t->pdev, 0);
	return 0;
}

static int do_map(struct target *t, u64 offset, u64 size)
{
	resource_size_t start, region;
	int ret;

	if (!size)
		return -EINVAL;
	if (t->base)
		return -EBUSY;
	ret = target_region(t, &start, &region);
	if (ret)
		return ret;
	ret = -EINVAL;
	if (offset >= region || size > region - offset)
		goto put_dev;
	if (t->pdev) {
		ret = pci_enable_device_mem(t->pdev);
		if (ret)
			goto put_dev;
	}
	t->base = ioremap(start + offset, size);
	if (!t->base) {
		ret = -ENOMEM;
		goto disable_dev;
	}
	t->size = size;
	return 0;

disable_dev:
	if (t->pdev)
		pci_disable_device(t->pdev);
put_dev:
	pci_dev_put(t->pdev);
	t->pdev = NULL;
	return ret;
}

static int do_unmap(struct target *t)
{
	if (!t->base)
		return -ENXIO;
	iounmap(t->base);
	t->base = NULL;
	if (t->pdev) {
		pci_disable_device(t->pdev);
		pci_dev_put(t->pdev);
		t->pdev = NULL;
	}
	return 0;
}

static u64 access_once(void __iomem *p, unsigned int width, bool write,
		       u64 value)
{
	switch (width) {
	case 1:
		if (write)
			writeb(value, p);
		else
			value = readb(p);
		break;
	case 2:
		if (write)
			writew(value, p);
		else
			value = readw(p);
		break;
	case 4:
		if (write)
			writel(value, p);
		else
			value = readl(p);
		break;
	default:
		if (write)
			writeq(value, p);
		else
			value = readq(p);
		break;
	}
	return value;
}

/* argv: read|write TARGET WIDTH OFFSET [VALUE] */
static int do_access(int argc, char **argv, u64 count)
{
	bool write = !strcmp(argv[0], "write");
	unsigned int width;
	u64 offset, value = 0, done;
	struct target *t;
	ktime_t start;

	if (argc != (write ? 5 : 4) || (!write && strcmp(argv[0], "read")))
		return -EINVAL;
	t = find_target(argv[1]);
	if (!t || kstrtouint(argv[2], 0, &width) || kstrtou64(argv[3], 0, &offset))
		return -EINVAL;
	if (write && kstrtou64(argv[4], 0, &value))
		return -EINVAL;
	if (width != 1 && width != 2 && width != 4 && width != 8)
		return -EINVAL;
	if (offset % width || (width < 8 && value >> (8 * width)))
		return -EINVAL;
	if (!t->base)
		return -ENXIO;
	if (offset >= t->size || width > t->size - offset)
		return -EINVAL;

	start = ktime_get();
	for (done = 0; done < count; done++)
		value = access_once(t->base + offset, width, write, value);
	elapsed_ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	if (!write)
		last_value = value;
	return 0;
}

static int run_command(int argc, char **argv)
{
	struct target *t;
	u64 offset = 0, size = DEFAULT_WINDOW, count;

	if (!argc)
		return -EINVAL;
	if (!strcmp(argv[0], "warn") && argc == 1) {
		WARN(1, "mmiotouch: warning requested by the harness self-test\n");
		return 0;
	}
	if (!strcmp(argv[0], "panic") && argc == 1)
		panic("mmiotouch: panic requested by the harness self-test\n");
	if (!strcmp(argv[0], "repeat")) {
		if (argc < 2 || kstrtou64(argv[1], 0, &count) || !count)
			return -EINVAL;
		return do_access(argc - 2, argv + 2, count);
	}
	if (!strcmp(argv[0], "read") || !strcmp(argv[0], "write"))
		return do_access(argc, argv, 1);
	if (argc < 2)
		return -EINVAL;
	t = find_target(argv[1]);
	if (!t)
		return -EINVAL;
	if (!strcmp(argv[0], "map")) {
		if (argc != 2 && argc != 4)
			return -EINVAL;
		if (argc == 4 && (kstrtou64(argv[2], 0, &offset) ||
				  kstrtou64(argv[3], 0, &size)))
			return -EINVAL;
		return do_map(t, offset, size);
	}
	if (!strcmp(argv[0], "unmap") && argc == 2)
		return do_unmap(t);
	return -EINVAL;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char *buf, *cursor, *argv[8], *word;
	int argc = 0, ret;

	if (count >= CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	cursor = strim(buf);
	while ((word = strsep(&cursor, " \t")) != NULL) {
		if (!*word)
			continue;
		if (argc == ARRAY_SIZE(argv)) {
			kfree(buf);
			return -EINVAL;
		}
		argv[argc++] = word;
	}

	mutex_lock(&touch_mutex);
	ret = run_command(argc, argv);
	mutex_unlock(&touch_mutex);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
	.llseek = noop_llseek,
};

static int value_get(void *data, u64 *val)
{
	mutex_lock(&touch_mutex);
	*val = *(u64 *)data;
	mutex_unlock(&touch_mutex);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(value_fops, value_get, NULL, "0x%llx\n");
DEFINE_DEBUGFS_ATTRIBUTE(elapsed_fops, value_get, NULL, "%llu\n");

static int __init mmiotouch_init(void)
{
	touch_dir = debugfs_create_dir("mmiotouch", NULL);
	debugfs_create_file("ctl", 0200, touch_dir, NULL, &ctl_fops);
	debugfs_create_file_unsafe("value", 0400, touch_dir, &last_value,
				   &value_fops);
	debugfs_create_file_unsafe("elapsed_ns", 0400, touch_dir, &elapsed_ns,
				   &elapsed_fops);
	return 0;
}

static void __exit mmiotouch_exit(void)
{
	int i;

	debugfs_remove_recursive(touch_dir);
	for (i = 0; i < ARRAY_SIZE(targets); i++)
		do_unmap(&targets[i]);
}

module_init(mmiotouch_init);
module_exit(mmiotouch_exit);
MODULE_DESCRIPTION("Drive QEMU devices through MMIO for the mmiotrace tests");
MODULE_LICENSE("GPL");
