// SPDX-License-Identifier: GPL-2.0
/*
 * fuzztarget: a PCI driver for QEMU's edu device (1234:11e8) whose probe
 * trusts its device, as drivers do, with a bug planted where only a fuzzer
 * that reads comparison operands gets: two registers must hold magic
 * values (edu reads all ones there) before a length read from the device
 * indexes a fixed table, unchecked. The bad index is reported with a
 * WARN() instead of being used, so that the test kernel finds it without
 * KASAN and stays sound. mmioctl fuzz's test (bats/fuzz.bats) must find it
 * from kcov's comparison records, not from this source.
 *
 * Built with kcov instrumentation (Kbuild), loaded by that test only: the
 * driver binds edu as soon as it loads.
 */
#include <linux/bug.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>

#define EDU_ID		0x00	/* 0x010000ed: edu, version 1.0 */
#define EDU_MAGIC0	0x40	/* unimplemented: all ones */
#define EDU_MAGIC1	0x44
#define EDU_LENGTH	0x48
#define MAGIC0		0x4d4d494f	/* "MMIO" */
#define MAGIC1		0x46555a5a	/* "FUZZ" */

static u32 table[16];

static int fuzztarget_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	void __iomem *regs;
	u32 length;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	regs = pcim_iomap(pdev, 0, PAGE_SIZE);
	if (!regs)
		return -ENOMEM;
	if ((readl(regs + EDU_ID) & 0xff) != 0xed)
		return -ENODEV;
	if (readl(regs + EDU_MAGIC0) != MAGIC0)
		return 0;
	if (readl(regs + EDU_MAGIC1) != MAGIC1)
		return 0;
	length = readl(regs + EDU_LENGTH);
	if (WARN(length >= ARRAY_SIZE(table), "fuzztarget: bad index %u\n", length))
		return -EIO;
	table[length]++;
	return 0;
}

static const struct pci_device_id fuzztarget_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};
MODULE_DEVICE_TABLE(pci, fuzztarget_ids);

static struct pci_driver fuzztarget_driver = {
	.name		= "fuzztarget",
	.id_table	= fuzztarget_ids,
	.probe		= fuzztarget_probe,
};
module_pci_driver(fuzztarget_driver);

MODULE_DESCRIPTION("a driver with a planted bug for mmioctl fuzz's test");
MODULE_LICENSE("GPL");
