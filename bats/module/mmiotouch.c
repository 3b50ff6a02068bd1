// SPDX-License-Identifier: GPL-2.0
/*
 * mmiotouch: drive real QEMU devices through MMIO in a known sequence, so
 * that the guest tests can compare mmiotrace's output with what was done.
 *
 * Targets (one mapping each at a time):
 *   edu      BAR0 of QEMU's edu device (1234:11e8), 1M
 *   vga      BAR0 (framebuffer) of QEMU's std VGA (1234:1111), 16M
 *   ivshmem  BAR2 (shared memory) of QEMU's ivshmem-plain (1af4:1110)
 *   isa      the legacy VGA window in the ISA hole, physical 0xa0000 (x86)
 *   cmb      BAR2 of QEMU's nvme (1b36:0010) with cmb_size_mb: its
 *            controller memory buffer, an MMIO region that reads back what
 *            was written at every width, each access in QEMU's log (arm64)
 *
 * Commands, one per write to /sys/kernel/debug/mmiotouch/ctl:
 *   map TARGET [OFFSET SIZE]          ioremap a window (default 0 0x1000)
 *   unmap TARGET [OFFSET]             iounmap it, through a pointer OFFSET
 *                                     bytes into its first page
 *   read TARGET WIDTH OFFSET          readb/w/l/q: WIDTH is 1, 2, 4 or 8
 *   write TARGET WIDTH OFFSET VALUE   writeb/w/l/q
 *   repeat COUNT read|write|insn ...  the same access COUNT times
 *   insn NAME TARGET OFFSET [VALUE]   one instruction of a given form, see
 *                                     insn_forms[] (x86: extensions, AH,
 *                                     immediates, read-modify-writes, SSE;
 *                                     arm64: the A64 loads and stores)
 *   string OP WIDTH DIR TARGET OFFSET COUNT
 *                                     OP movs_in (MMIO to the buffer),
 *                                     movs_out (buffer to MMIO) or stos
 *                                     (the low bytes of VALUE, see fill),
 *                                     DIR fwd or back; REP with COUNT
 *                                     elements, or one element without REP
 *                                     when COUNT is 0; OFFSET is the first
 *                                     element, the highest one for back
 *                                     (x86)
 *   copy WIDTH SRC SRC_OFFSET DST DST_OFFSET COUNT
 *                                     REP MOVS from one mapping to another
 *                                     (x86)
 *   fromio TARGET OFFSET LEN          memcpy_fromio() into the buffer
 *   toio TARGET OFFSET LEN            memcpy_toio() from the buffer
 *   setio TARGET OFFSET LEN BYTE      memset_io()
 *   fill SEED                         buffer byte i = (SEED + i) & 0xff, and
 *                                     the value STOS stores = SEED
 *   remap COUNT TARGET                ioremap() and iounmap() 4k of TARGET
 *                                     COUNT times (for make bench)
 *   fault COUNT                       COUNT reads of a page that is not
 *                                     present, each ended by its exception
 *                                     fixup: the floor of a traced access
 *   reclaim_watch on|off              count kmmio_arm()'s calls, and those
 *                                     where an allocation may reclaim with
 *                                     I/O; off sets "value" to
 *                                     calls << 32 | reclaimable
 *   hold_leaf MS PID                  kmmio changes a leaf's entry MS ms late,
 *                                     holding its fault page's lock, in task
 *                                     PID only; "hold_leaf 0 0" ends it and
 *                                     sets "value" to the times it waited
 *   hold_fork MS PID                  fork() in task PID waits MS ms after
 *                                     copying the address space, before the
 *                                     child joins the task list; ended as
 *                                     hold_leaf (one hold at a time)
 *   vmap | vunmap                     a RAM page vmap()ed as VM_IOREMAP, as
 *                                     vmap_pfn() and pstore make them: not
 *                                     an ioremap() mapping
 *   warn | panic                      WARN() or panic() (harness self-tests)
 *   hang                              spin with interrupts off for good: a
 *                                     dead machine that only a watchdog
 *                                     ends (the flight recorder's test)
 *
 * "value" holds the last value read (for insn: the whole destination
 * register afterwards), "elapsed_ns" the duration of the last
 * read/write/repeat/remap command, "buffer" the bytes of the last movs_in
 * or fromio in hex, "mapped" a "TARGET VIRT SIZE" line per mapped target;
 * on arm64, "value2" the second register of the last insn of a pair (or
 * what an exclusive pair loaded, or a 16-byte access's high half) and
 * "base" the distance from the access of its base register after the last
 * insn with writeback, and "leaves" the page-table leaves of the mapped
 * targets ("START-END ENTRY LEVEL", for the tests' page_level). Any
 * malformed command fails with EINVAL and changes nothing; string, copy
 * and pio (port I/O) are x86's, EOPNOTSUPP elsewhere.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/seq_file.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86
#include <asm/fpu/api.h>
#include <asm/ibt.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>
#include <asm/neon.h>
#include <asm/sysreg.h>
#endif

#define CMD_MAX		128
#define DEFAULT_WINDOW	0x1000
#define ISA_VGA_START	0xa0000
#define ISA_VGA_SIZE	0x20000
#define BUFFER_SIZE	4096
/* What a register holds before an instruction that writes part of it. */
#define REG_FILL	0x1122334455667788UL

struct target {
	const char *name;
	unsigned short vendor, device;	/* PCI IDs, 0 for a fixed range */
	int bar;
	resource_size_t fixed_start, fixed_size;
	void __iomem *base;		/* mapped window, NULL when unmapped */
	resource_size_t size;
	/*
	 * Held and enabled from the first map until the module goes: on
	 * QEMU's edu, whose interrupt pin routes through ACPI, enabling and
	 * disabling take a second each under TCG.
	 */
	struct pci_dev *pdev;
};

static struct target targets[] = {
	{ .name = "edu", .vendor = 0x1234, .device = 0x11e8, .bar = 0 },
	{ .name = "vga", .vendor = 0x1234, .device = 0x1111, .bar = 0 },
	{ .name = "ivshmem", .vendor = 0x1af4, .device = 0x1110, .bar = 2 },
#ifdef CONFIG_X86
	{ .name = "isa", .fixed_start = ISA_VGA_START,
	  .fixed_size = ISA_VGA_SIZE },
#endif
	{ .name = "cmb", .vendor = 0x1b36, .device = 0x0010, .bar = 2 },
};

/*
 * Protects targets[], buffer, buffer_len and fill_seed. Every command holds
 * it for writing except read, write and repeat: those hold it for reading,
 * so that several CPUs access a mapping at the same time (the concurrency
 * tests and the bench need that), and store their results with
 * WRITE_ONCE(); with several at once, "value" and "elapsed_ns" hold one of
 * them.
 */
static DECLARE_RWSEM(touch_rwsem);
static struct page *vmap_page;
static void *vmap_addr;
static u64 last_value;
static u64 elapsed_ns;
static u8 buffer[BUFFER_SIZE];
static size_t buffer_len;
static u64 fill_seed;
static struct dentry *touch_dir;

static struct target *find_target(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

/*
 * Physical extent of a target's region: its PCI BAR, the device enabled,
 * or the fixed range.
 */
static int target_region(struct target *t, resource_size_t *start,
			 resource_size_t *size)
{
	struct pci_dev *pdev;
	int ret;

	if (!t->vendor) {
		*start = t->fixed_start;
		*size = t->fixed_size;
		return 0;
	}
	if (!t->pdev) {
		pdev = pci_get_device(t->vendor, t->device, NULL);
		if (!pdev)
			return -ENODEV;
		if (!(pci_resource_flags(pdev, t->bar) & IORESOURCE_MEM)) {
			pci_dev_put(pdev);
			return -ENODEV;
		}
		ret = pci_enable_device_mem(pdev);
		if (ret) {
			pci_dev_put(pdev);
			return ret;
		}
		t->pdev = pdev;
	}
	*start = pci_resource_start(t->pdev, t->bar);
	*size = pci_resource_len(t->pdev, t->bar);
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
	if (offset >= region || size > region - offset)
		return -EINVAL;
	t->base = ioremap(start + offset, size);
	if (!t->base)
		return -ENOMEM;
	t->size = size;
	return 0;
}

/* iounmap() takes any pointer into the first page of a mapping. */
static int do_unmap(struct target *t, u64 offset)
{
	if (!t->base)
		return -ENXIO;
	if (offset >= PAGE_SIZE - offset_in_page(t->base) || offset >= t->size)
		return -EINVAL;
	iounmap(t->base + offset);
	t->base = NULL;
	return 0;
}

/*
 * reclaim_watch: a kprobe on kmmio_arm(), which allocates and is called
 * under mmiotrace's mapping_mutex, counts the calls made where an
 * allocation may enter reclaim that does I/O or a file system's: a GPU
 * driver's shrinker may iounmap() there, which takes mapping_mutex.
 * (Lockdep cannot tell: iounmap() takes it inside an SRCU read section.)
 */
static atomic_t arms_seen, arms_reclaimable;

static int reclaim_watch_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&arms_seen);
	if (current_gfp_context(GFP_KERNEL) & (__GFP_IO | __GFP_FS))
		atomic_inc(&arms_reclaimable);
	return 0;
}

static struct kprobe reclaim_kprobe = {
	.symbol_name = "kmmio_arm",
	.pre_handler = reclaim_watch_pre,
};
static bool reclaim_watching;

static int do_reclaim_watch(int argc, char **argv)
{
	int ret;

	if (argc != 2)
		return -EINVAL;
	if (!strcmp(argv[1], "off") && reclaim_watching) {
		unregister_kprobe(&reclaim_kprobe);
		reclaim_watching = false;
		WRITE_ONCE(last_value,
			   (u64)atomic_xchg(&arms_seen, 0) << 32 |
			   atomic_xchg(&arms_reclaimable, 0));
		return 0;
	}
	if (strcmp(argv[1], "on") || reclaim_watching)
		return -EINVAL;
	reclaim_kprobe.addr = NULL;
	reclaim_kprobe.flags = 0;
	ret = register_kprobe(&reclaim_kprobe);
	reclaim_watching = !ret;
	return ret;
}

/*
 * hold_leaf: a kprobe on kmmio's set_leaf_armed(), called with the leaf's
 * fault page locked, delays it in one task: the fault path of another CPU
 * then finds the lock held for as long as the test wants.
 *
 * hold_fork: copy_process() calls copy_thread() after copy_mm() and before
 * the child is on the task list. The delay there must sleep: a CPU held
 * with preemption off would hold up every RCU grace period, and with it
 * the tracing start that the test runs meanwhile. A kprobe handler cannot
 * sleep, so it sends the call, as error injection does, to
 * held_copy_thread(), which sleeps and then calls copy_thread() again (the
 * handler lets that one through).
 */
static DEFINE_MUTEX(hold_mutex);	/* hold_ms, registering the kprobe */
static unsigned int hold_ms;
static pid_t hold_pid;
static atomic_t holds;
static bool hold_sleeps;		/* hold_fork */
static struct task_struct *held_task;	/* in held_copy_thread() */
static int (*copy_thread_fn)(struct task_struct *p,
			     const struct kernel_clone_args *args);

static int held_copy_thread(struct task_struct *p,
			    const struct kernel_clone_args *args)
{
	msleep(READ_ONCE(hold_ms));
	return copy_thread_fn(p, args);
}

static int hold_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (current->pid != READ_ONCE(hold_pid))
		return 0;
	if (!READ_ONCE(hold_sleeps)) {
		atomic_inc(&holds);
		mdelay(READ_ONCE(hold_ms));
		return 0;
	}
	if (READ_ONCE(held_task) == current) {
		WRITE_ONCE(held_task, NULL);
		return 0;
	}
	WRITE_ONCE(held_task, current);
	atomic_inc(&holds);
	instruction_pointer_set(regs, (unsigned long)held_copy_thread);
	return 1;
}

static struct kprobe hold_kprobe = {
	.pre_handler = hold_pre,
};

static int do_hold(int argc, char **argv, const char *symbol, bool sleeps)
{
	unsigned int ms;
	int pid, ret;

	if (argc != 3 || kstrtouint(argv[1], 0, &ms) || ms > 10000 ||
	    kstrtoint(argv[2], 0, &pid))
		return -EINVAL;
	guard(mutex)(&hold_mutex);
	if (!ms) {
		if (hold_ms)
			unregister_kprobe(&hold_kprobe);
		hold_ms = 0;
		WRITE_ONCE(last_value, atomic_xchg(&holds, 0));
		return 0;
	}
	if (hold_ms || pid <= 0)
		return -EINVAL;
	WRITE_ONCE(hold_pid, pid);
	WRITE_ONCE(hold_ms, ms);
	WRITE_ONCE(hold_sleeps, sleeps);
	WRITE_ONCE(held_task, NULL);
	hold_kprobe.symbol_name = symbol;
	hold_kprobe.addr = NULL;
	hold_kprobe.flags = 0;
	ret = register_kprobe(&hold_kprobe);
	if (ret) {
		hold_ms = 0;
		return ret;
	}
	copy_thread_fn = (void *)hold_kprobe.addr;
#ifdef CONFIG_X86
	/* The function itself, before the ENDBR that the probe skips. */
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    is_endbr(*(u32 *)((unsigned long)hold_kprobe.addr - ENDBR_INSN_SIZE)))
		copy_thread_fn = (void *)hold_kprobe.addr - ENDBR_INSN_SIZE;
#endif
	return 0;
}

/* @len bytes at @offset of a mapped target, or an error. */
static int target_span(const char *name, u64 offset, u64 len,
		       void __iomem **p)
{
	struct target *t = find_target(name);

	if (!t)
		return -EINVAL;
	if (!t->base)
		return -ENXIO;
	if (offset >= t->size || len > t->size - offset)
		return -EINVAL;
	*p = t->base + offset;
	return 0;
}

/* The same, with the offset as a command gives it. */
static int target_span_str(const char *name, const char *offset_str, u64 len,
			   void __iomem **p)
{
	u64 offset;

	if (kstrtou64(offset_str, 0, &offset))
		return -EINVAL;
	return target_span(name, offset, len, p);
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

static bool valid_width(unsigned int width)
{
	return width == 1 || width == 2 || width == 4 || width == 8;
}

/* argv: read|write TARGET WIDTH OFFSET [VALUE] */
static int do_access(int argc, char **argv, u64 count)
{
	bool write = !strcmp(argv[0], "write");
	unsigned int width;
	u64 offset, value = 0, done;
	void __iomem *p;
	ktime_t start;
	int ret;

	if (argc != (write ? 5 : 4) || (!write && strcmp(argv[0], "read")))
		return -EINVAL;
	if (kstrtouint(argv[2], 0, &width) || !valid_width(width) ||
	    kstrtou64(argv[3], 0, &offset))
		return -EINVAL;
	if (write && kstrtou64(argv[4], 0, &value))
		return -EINVAL;
	if (offset % width || (width < 8 && value >> (8 * width)))
		return -EINVAL;
	ret = target_span_str(argv[1], argv[3], width, &p);
	if (ret)
		return ret;

	start = ktime_get();
	for (done = 0; done < count; done++)
		value = access_once(p, width, write, value);
	WRITE_ONCE(elapsed_ns, ktime_to_ns(ktime_sub(ktime_get(), start)));
	if (!write)
		WRITE_ONCE(last_value, value);
	return 0;
}

/*
 * One instruction of a known form, so that the tests can check how each
 * is traced and what it leaves in its register. Reads start from a
 * register holding REG_FILL, so that what an instruction keeps of it shows.
 */
struct insn_form {
	const char *name;
	unsigned int width;		/* of the memory operand */
	u64 (*run)(void __iomem *p, u64 value);
	bool (*usable)(void);		/* NULL: on every CPU */
};

#ifdef CONFIG_X86
static u64 insn_movb_ah(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("movb %1, %%ah" : "+a" (v) : "m" (*(u8 __force *)p));
	return v;
}

static u64 insn_movb_from_ah(void __iomem *p, u64 v)
{
	v = (v & 0xff) << 8 | 0x77;
	asm volatile("movb %%ah, %0" : "=m" (*(u8 __force *)p) : "a" (v));
	return v;
}

static u64 insn_movw_keep(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("movw %1, %w0" : "+r" (v) : "m" (*(u16 __force *)p));
	return v;
}

static u64 insn_movl_zext(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("movl %1, %k0" : "+r" (v) : "m" (*(u32 __force *)p));
	return v;
}

static u64 insn_movzbq(void __iomem *p, u64 v)
{
	asm volatile("movzbq %1, %0" : "=r" (v) : "m" (*(u8 __force *)p));
	return v;
}

static u64 insn_movzwq(void __iomem *p, u64 v)
{
	asm volatile("movzwq %1, %0" : "=r" (v) : "m" (*(u16 __force *)p));
	return v;
}

static u64 insn_movzbw_keep(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("movzbw %1, %w0" : "+r" (v) : "m" (*(u8 __force *)p));
	return v;
}

static u64 insn_movsbq(void __iomem *p, u64 v)
{
	asm volatile("movsbq %1, %0" : "=r" (v) : "m" (*(u8 __force *)p));
	return v;
}

static u64 insn_movswq(void __iomem *p, u64 v)
{
	asm volatile("movswq %1, %0" : "=r" (v) : "m" (*(u16 __force *)p));
	return v;
}

static u64 insn_movsbl_zext(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("movsbl %1, %k0" : "+r" (v) : "m" (*(u8 __force *)p));
	return v;
}

static u64 insn_movb_imm(void __iomem *p, u64 v)
{
	asm volatile("movb $0x5a, %0" : "=m" (*(u8 __force *)p));
	return 0x5a;
}

static u64 insn_movw_imm(void __iomem *p, u64 v)
{
	asm volatile("movw $0x1234, %0" : "=m" (*(u16 __force *)p));
	return 0x1234;
}

static u64 insn_movl_imm(void __iomem *p, u64 v)
{
	asm volatile("movl $0x12345678, %0" : "=m" (*(u32 __force *)p));
	return 0x12345678;
}

/* An imm32 sign-extended to 64 bits. */
static u64 insn_movq_imm(void __iomem *p, u64 v)
{
	asm volatile("movq $-2, %0" : "=m" (*(u64 __force *)p));
	return -2;
}

/* Not a MOV: kmmio single-steps it, through a buffer of its own. */
static u64 insn_orl_stepped(void __iomem *p, u64 v)
{
	asm volatile("orl $0x100, %0" : "+m" (*(u32 __force *)p));
	return 0;
}

/* A read-modify-write that leaves the old value in its register. */
static u64 insn_xchgl(void __iomem *p, u64 v)
{
	u32 reg = v;

	asm volatile("xchgl %0, %1" : "+r" (reg), "+m" (*(u32 __force *)p));
	return reg;
}

/*
 * The register that addresses the memory is its source as well: kmmio
 * cannot move it for the step, and makes the page present instead.
 */
static u64 insn_orl_self(void __iomem *p, u64 v)
{
	asm volatile("orl %k0, (%0)" : : "r" (p) : "memory");
	return 0;
}

/*
 * Without a REX prefix, BH is bits 8 to 15 of RBX: an operand that is part
 * of the address register, so the page is made present for the step. The
 * byte stored is bits 8 to 15 of the address; the old byte comes back.
 */
static u64 insn_xchgb_bh(void __iomem *p, u64 v)
{
	unsigned long rbx = (unsigned long)p;

	asm volatile("xchgb %%bh, (%%rbx)" : "+b" (rbx) : : "memory");
	return (rbx >> 8) & 0xff;
}

/*
 * SSE MOVQ to memory: stepped through a buffer, its value known. The
 * kernel is built without SSE, so xmm0 is nobody's but this asm's between
 * kernel_fpu_begin() and kernel_fpu_end(); it cannot be named a clobber.
 */
static u64 insn_movq_xmm(void __iomem *p, u64 v)
{
	kernel_fpu_begin();
	asm volatile("movq %0, %%xmm0\n\tmovq %%xmm0, (%1)"
		     : : "r" (v), "r" (p) : "memory");
	kernel_fpu_end();
	return v;
}

/* An SSE load of 32 bits: stepped through a buffer, its value known. */
static u64 insn_movd_xmm_load(void __iomem *p, u64 v)
{
	u32 value;

	kernel_fpu_begin();
	asm volatile("movd (%1), %%xmm0\n\tmovd %%xmm0, %0"
		     : "=r" (value) : "r" (p) : "memory");
	kernel_fpu_end();
	return value;
}

/* MMX MOVQ to the device and back: stepped through a buffer, with values. */
static u64 insn_movq_mmx(void __iomem *p, u64 v)
{
	u64 value;

	kernel_fpu_begin();
	asm volatile("movq %1, %%mm0\n\tmovq %%mm0, (%2)\n\t"
		     "movq (%2), %%mm1\n\tmovq %%mm1, %0\n\temms"
		     : "=r" (value) : "r" (v), "r" (p) : "memory");
	kernel_fpu_end();
	return value;
}

/* 16 bytes from an XMM register: stepped onto the alias, UNKNOWN. */
static u64 insn_movdqu_xmm(void __iomem *p, u64 v)
{
	kernel_fpu_begin();
	asm volatile("movq %0, %%xmm0\n\tpunpcklqdq %%xmm0, %%xmm0\n\t"
		     "movdqu %%xmm0, (%1)"
		     : : "r" (v), "r" (p) : "memory");
	kernel_fpu_end();
	return v;
}

/* PUSH from the device, the value popped back into a register. */
static u64 insn_pushq(void __iomem *p, u64 v)
{
	asm volatile("pushq (%1)\n\tpopq %0" : "=r" (v) : "r" (p) : "memory");
	return v;
}

static const struct insn_form insn_forms[] = {
	{ "movb_ah", 1, insn_movb_ah },
	{ "movb_from_ah", 1, insn_movb_from_ah },
	{ "movw_keep", 2, insn_movw_keep },
	{ "movl_zext", 4, insn_movl_zext },
	{ "movzbq", 1, insn_movzbq },
	{ "movzwq", 2, insn_movzwq },
	{ "movzbw_keep", 1, insn_movzbw_keep },
	{ "movsbq", 1, insn_movsbq },
	{ "movswq", 2, insn_movswq },
	{ "movsbl_zext", 1, insn_movsbl_zext },
	{ "movb_imm", 1, insn_movb_imm },
	{ "movw_imm", 2, insn_movw_imm },
	{ "movl_imm", 4, insn_movl_imm },
	{ "movq_imm", 8, insn_movq_imm },
	{ "orl_stepped", 4, insn_orl_stepped },
	{ "xchgl", 4, insn_xchgl },
	{ "orl_self", 4, insn_orl_self },
	{ "xchgb_bh", 1, insn_xchgb_bh },
	{ "movq_xmm", 8, insn_movq_xmm },
	{ "movd_xmm_load", 4, insn_movd_xmm_load },
	{ "movq_mmx", 8, insn_movq_mmx },
	{ "movdqu_xmm", 16, insn_movdqu_xmm },
	{ "pushq", 8, insn_pushq },
};
#elif defined(CONFIG_ARM64)
/*
 * The A64 loads and stores, one instruction of each form on the register
 * at p, so that a test can compare the device's record of each with the
 * trace. The effective address is always p: forms with an offset start
 * their base register elsewhere. Loads start from a register holding
 * REG_FILL, so that what a W-register load keeps of it shows (nothing);
 * stores store VALUE, masked to their width, and return what they stored.
 * A pair's second register goes to insn_value2 ("value2": its first is
 * "value"); a form with writeback leaves its base register's distance
 * from p in insn_base ("base").
 */
static u64 insn_value2;
static long insn_base;

#define A64_LOAD(name, asm_insn)					\
static u64 insn_##name(void __iomem *p, u64 v)				\
{									\
	v = REG_FILL;							\
	asm volatile(asm_insn : "+r" (v) : "r" (p) : "memory");		\
	return v;							\
}

#define A64_STORE(name, asm_insn, mask)					\
static u64 insn_##name(void __iomem *p, u64 v)				\
{									\
	v &= mask;							\
	asm volatile(asm_insn : : "r" (v), "r" (p) : "memory");		\
	return v;							\
}

A64_LOAD(ldrb, "ldrb %w0, [%1]")
A64_LOAD(ldrh, "ldrh %w0, [%1]")
A64_LOAD(ldr_w, "ldr %w0, [%1]")
A64_LOAD(ldr_x, "ldr %0, [%1]")
A64_LOAD(ldrsb_w, "ldrsb %w0, [%1]")
A64_LOAD(ldrsb_x, "ldrsb %0, [%1]")
A64_LOAD(ldrsh_w, "ldrsh %w0, [%1]")
A64_LOAD(ldrsh_x, "ldrsh %0, [%1]")
A64_LOAD(ldrsw, "ldrsw %0, [%1]")
A64_LOAD(ldar_w, "ldar %w0, [%1]")
A64_LOAD(ldar_x, "ldar %0, [%1]")
A64_STORE(strb, "strb %w0, [%1]", 0xff)
A64_STORE(strh, "strh %w0, [%1]", 0xffff)
A64_STORE(str_w, "str %w0, [%1]", 0xffffffff)
A64_STORE(str_x, "str %0, [%1]", ~0UL)
A64_STORE(stlr_w, "stlr %w0, [%1]", 0xffffffff)
A64_STORE(stlr_x, "stlr %0, [%1]", ~0UL)

/* An unsigned, scaled 12-bit offset: 32 doublewords. */
static u64 insn_ldr_x_imm(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldr %0, [%1, #256]" : "+r" (v) : "r" (p - 256) : "memory");
	return v;
}

/* Unscaled 9-bit offsets, unaligned ones among them. */
static u64 insn_ldur_w(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldur %w0, [%1, #-3]" : "+r" (v) : "r" (p + 3) : "memory");
	return v;
}

static u64 insn_ldur_x(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldur %0, [%1, #255]" : "+r" (v) : "r" (p - 255) : "memory");
	return v;
}

static u64 insn_stur_w(void __iomem *p, u64 v)
{
	v &= 0xffffffff;
	asm volatile("stur %w0, [%1, #-1]" : : "r" (v), "r" (p + 1) : "memory");
	return v;
}

/* Register offsets: shifted, and 32-bit indices zero- or sign-extended. */
static u64 insn_ldr_x_lsl(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldr %0, [%1, %2, lsl #3]"
		     : "+r" (v) : "r" (p - 8), "r" (1UL) : "memory");
	return v;
}

/* UXTW takes the index's low 32 bits only. */
static u64 insn_ldr_w_uxtw(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldr %w0, [%1, %w2, uxtw #2]"
		     : "+r" (v) : "r" (p - 4), "r" (0xdead000000000001UL) : "memory");
	return v;
}

static u64 insn_ldrh_sxtw(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldrh %w0, [%1, %w2, sxtw #1]"
		     : "+r" (v) : "r" (p + 2), "r" (0xffffffffUL) : "memory");
	return v;
}

static u64 insn_ldrb_reg(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldrb %w0, [%1, %2]" : "+r" (v) : "r" (p - 16), "r" (16UL) : "memory");
	return v;
}

static u64 insn_str_w_sxtw(void __iomem *p, u64 v)
{
	v &= 0xffffffff;
	asm volatile("str %w0, [%1, %w2, sxtw]"
		     : : "r" (v), "r" (p + 4), "r" (0xfffffffcUL) : "memory");
	return v;
}

/* XZR as the stored register: __raw_writeq(0, p) compiles to this. */
static u64 insn_str_xzr(void __iomem *p, u64 v)
{
	asm volatile("str xzr, [%0]" : : "r" (p) : "memory");
	return 0;
}

/* Pre- and post-index: the base register is written back. */
static u64 insn_ldr_x_pre(void __iomem *p, u64 v)
{
	void __iomem *base = p - 8;

	v = REG_FILL;
	asm volatile("ldr %0, [%1, #8]!" : "+r" (v), "+r" (base) : : "memory");
	insn_base = base - p;
	return v;
}

static u64 insn_ldr_w_post(void __iomem *p, u64 v)
{
	void __iomem *base = p;

	v = REG_FILL;
	asm volatile("ldr %w0, [%1], #4" : "+r" (v), "+r" (base) : : "memory");
	insn_base = base - p;
	return v;
}

static u64 insn_str_x_pre(void __iomem *p, u64 v)
{
	void __iomem *base = p + 8;

	asm volatile("str %1, [%0, #-8]!" : "+r" (base) : "r" (v) : "memory");
	insn_base = base - p;
	return v;
}

static u64 insn_strb_post(void __iomem *p, u64 v)
{
	void __iomem *base = p;

	v &= 0xff;
	asm volatile("strb %w1, [%0], #-1" : "+r" (base) : "r" (v) : "memory");
	insn_base = base - p;
	return v;
}

/* Pairs: the second register stores ~VALUE. */
static u64 insn_ldp_w(void __iomem *p, u64 v)
{
	u64 v2 = REG_FILL;

	v = REG_FILL;
	asm volatile("ldp %w0, %w1, [%2]" : "+r" (v), "+r" (v2) : "r" (p) : "memory");
	insn_value2 = v2;
	return v;
}

static u64 insn_ldp_x(void __iomem *p, u64 v)
{
	u64 v2 = REG_FILL;

	v = REG_FILL;
	asm volatile("ldp %0, %1, [%2]" : "+r" (v), "+r" (v2) : "r" (p) : "memory");
	insn_value2 = v2;
	return v;
}

static u64 insn_ldpsw(void __iomem *p, u64 v)
{
	u64 v2 = REG_FILL;

	v = REG_FILL;
	asm volatile("ldpsw %0, %1, [%2]" : "+r" (v), "+r" (v2) : "r" (p) : "memory");
	insn_value2 = v2;
	return v;
}

static u64 insn_stp_w(void __iomem *p, u64 v)
{
	v &= 0xffffffff;
	insn_value2 = ~v & 0xffffffff;
	asm volatile("stp %w0, %w1, [%2]" : : "r" (v), "r" (insn_value2), "r" (p) : "memory");
	return v;
}

static u64 insn_stp_x(void __iomem *p, u64 v)
{
	insn_value2 = ~v;
	asm volatile("stp %0, %1, [%2]" : : "r" (v), "r" (insn_value2), "r" (p) : "memory");
	return v;
}

/*
 * What the tracer cannot emulate. An exclusive load, its monitor cleared;
 * an exclusive pair, which returns STXR's status (0: stored) with what
 * LDXR read in value2.
 */
static u64 insn_ldxr_x(void __iomem *p, u64 v)
{
	v = REG_FILL;
	asm volatile("ldxr %0, [%1]\n\tclrex" : "+r" (v) : "r" (p) : "memory");
	return v;
}

static u64 insn_stxr_w(void __iomem *p, u64 v)
{
	u64 status = REG_FILL, old = REG_FILL;
	unsigned long flags;

	v &= 0xffffffff;
	/*
	 * The loop as drivers write it, retried until the store exclusive
	 * succeeds; without interrupts, which clear the monitor, so that it
	 * succeeds the first time whenever the loop can end at all.
	 */
	local_irq_save(flags);
	asm volatile("1:	ldxr %w1, [%2]\n"
		     "	stxr %w0, %w3, [%2]\n"
		     "	cbnz %w0, 1b"
		     : "+&r" (status), "+&r" (old) : "r" (p), "r" (v) : "memory");
	local_irq_restore(flags);
	insn_value2 = old;
	return status;
}

/*
 * LSE atomics (forms that need them fail with EOPNOTSUPP on a CPU
 * without): the old value comes back in the register. CAS compares with
 * VALUE's high 32 bits and stores its low 32 bits.
 */
static u64 insn_ldadd_w(void __iomem *p, u64 v)
{
	u64 old = REG_FILL;

	asm volatile(".arch_extension lse\n\tldadd %w2, %w0, [%1]"
		     : "+r" (old) : "r" (p), "r" (v) : "memory");
	return old;
}

static u64 insn_swp_x(void __iomem *p, u64 v)
{
	u64 old = REG_FILL;

	asm volatile(".arch_extension lse\n\tswp %2, %0, [%1]"
		     : "+r" (old) : "r" (p), "r" (v) : "memory");
	return old;
}

static u64 insn_cas_w(void __iomem *p, u64 v)
{
	u64 compare = v >> 32;

	asm volatile(".arch_extension lse\n\tcas %w0, %w2, [%1]"
		     : "+r" (compare) : "r" (p), "r" (v & 0xffffffff) : "memory");
	return compare;
}

/*
 * A 16-byte SIMD load and store through q0, between kernel_neon_begin()
 * and kernel_neon_end() (the kernel is built without FP/SIMD, so v0 is
 * this asm's, and cannot be named a clobber). The store's high half is
 * ~VALUE; the load's high half goes to value2.
 */
static u64 insn_ldr_q(void __iomem *p, u64 v)
{
	u64 hi;

	kernel_neon_begin();
	asm volatile(".arch_extension simd\n\tldr q0, [%2]\n\t"
		     "umov %0, v0.d[0]\n\tumov %1, v0.d[1]"
		     : "=r" (v), "=r" (hi) : "r" (p) : "memory");
	kernel_neon_end();
	insn_value2 = hi;
	return v;
}

static u64 insn_str_q(void __iomem *p, u64 v)
{
	insn_value2 = ~v;
	kernel_neon_begin();
	asm volatile(".arch_extension simd\n\tmov v0.d[0], %0\n\t"
		     "mov v0.d[1], %1\n\tstr q0, [%2]"
		     : : "r" (v), "r" (insn_value2), "r" (p) : "memory");
	kernel_neon_end();
	return v;
}

/* LSE's atomics, as ID_AA64ISAR0_EL1 says (the kernel may be built without). */
static bool cpu_has_lse(void)
{
	return cpuid_feature_extract_unsigned_field(read_sysreg_s(SYS_ID_AA64ISAR0_EL1),
						    ID_AA64ISAR0_EL1_ATOMIC_SHIFT) >= 2;
}

static const struct insn_form insn_forms[] = {
	{ "ldrb", 1, insn_ldrb },
	{ "ldrh", 2, insn_ldrh },
	{ "ldr_w", 4, insn_ldr_w },
	{ "ldr_x", 8, insn_ldr_x },
	{ "ldrsb_w", 1, insn_ldrsb_w },
	{ "ldrsb_x", 1, insn_ldrsb_x },
	{ "ldrsh_w", 2, insn_ldrsh_w },
	{ "ldrsh_x", 2, insn_ldrsh_x },
	{ "ldrsw", 4, insn_ldrsw },
	{ "ldr_x_imm", 8, insn_ldr_x_imm },
	{ "ldur_w", 4, insn_ldur_w },
	{ "ldur_x", 8, insn_ldur_x },
	{ "ldr_x_lsl", 8, insn_ldr_x_lsl },
	{ "ldr_w_uxtw", 4, insn_ldr_w_uxtw },
	{ "ldrh_sxtw", 2, insn_ldrh_sxtw },
	{ "ldrb_reg", 1, insn_ldrb_reg },
	{ "ldr_x_pre", 8, insn_ldr_x_pre },
	{ "ldr_w_post", 4, insn_ldr_w_post },
	{ "ldp_w", 8, insn_ldp_w },
	{ "ldp_x", 16, insn_ldp_x },
	{ "ldpsw", 8, insn_ldpsw },
	{ "ldar_w", 4, insn_ldar_w },
	{ "ldar_x", 8, insn_ldar_x },
	{ "strb", 1, insn_strb },
	{ "strh", 2, insn_strh },
	{ "str_w", 4, insn_str_w },
	{ "str_x", 8, insn_str_x },
	{ "str_xzr", 8, insn_str_xzr },
	{ "stur_w", 4, insn_stur_w },
	{ "str_w_sxtw", 4, insn_str_w_sxtw },
	{ "str_x_pre", 8, insn_str_x_pre },
	{ "strb_post", 1, insn_strb_post },
	{ "stp_w", 8, insn_stp_w },
	{ "stp_x", 16, insn_stp_x },
	{ "stlr_w", 4, insn_stlr_w },
	{ "stlr_x", 8, insn_stlr_x },
	{ "ldxr_x", 8, insn_ldxr_x },
	{ "stxr_w", 4, insn_stxr_w },
	{ "ldadd_w", 4, insn_ldadd_w, cpu_has_lse },
	{ "swp_x", 8, insn_swp_x, cpu_has_lse },
	{ "cas_w", 4, insn_cas_w, cpu_has_lse },
	{ "ldr_q", 16, insn_ldr_q },
	{ "str_q", 16, insn_str_q },
};

#endif

/* argv: insn NAME TARGET OFFSET [VALUE] */
static int do_insn(int argc, char **argv, u64 count)
{
	const struct insn_form *form = NULL;
	void __iomem *p;
	u64 value = 0, done, result = 0;
	ktime_t start;
	int i, ret;

	if (argc != 4 && argc != 5)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(insn_forms); i++)
		if (!strcmp(insn_forms[i].name, argv[1]))
			form = &insn_forms[i];
	if (!form || (argc == 5 && kstrtou64(argv[4], 0, &value)))
		return -EINVAL;
	if (form->usable && !form->usable())
		return -EOPNOTSUPP;
	ret = target_span_str(argv[2], argv[3], form->width, &p);
	if (ret)
		return ret;
	start = ktime_get();
	for (done = 0; done < count; done++)
		result = form->run(p, value);
	WRITE_ONCE(elapsed_ns, ktime_to_ns(ktime_sub(ktime_get(), start)));
	WRITE_ONCE(last_value, result);
	return 0;
}

#ifdef CONFIG_X86
/*
 * REP MOVS or STOS of @count elements of @width bytes, or one element
 * without REP when @count is 0. The asm strings need the width and the
 * prefix spelled out.
 */
#define STRING_OP(insn)							\
	asm volatile(insn : "+D" (dst), "+S" (src), "+c" (count)	\
		     : "a" (value) : "memory")

static void string_op(bool movs, unsigned int width, void *dst,
		      const void *src, unsigned long count, u64 value)
{
	const bool rep = count;

	switch (width | movs << 4 | rep << 5) {
	case 1: STRING_OP("stosb"); break;
	case 2: STRING_OP("stosw"); break;
	case 4: STRING_OP("stosl"); break;
	case 8: STRING_OP("stosq"); break;
	case 0x11: STRING_OP("movsb"); break;
	case 0x12: STRING_OP("movsw"); break;
	case 0x14: STRING_OP("movsl"); break;
	case 0x18: STRING_OP("movsq"); break;
	case 0x21: STRING_OP("rep stosb"); break;
	case 0x22: STRING_OP("rep stosw"); break;
	case 0x24: STRING_OP("rep stosl"); break;
	case 0x28: STRING_OP("rep stosq"); break;
	case 0x31: STRING_OP("rep movsb"); break;
	case 0x32: STRING_OP("rep movsw"); break;
	case 0x34: STRING_OP("rep movsl"); break;
	case 0x38: STRING_OP("rep movsq"); break;
	}
}

/* The same, from the highest element down (the direction flag set). */
static void string_op_back(bool movs, unsigned int width, void *dst,
			   const void *src, unsigned long count, u64 value)
{
	unsigned long flags;

	local_irq_save(flags);
	asm volatile("std");
	string_op(movs, width, dst, src, count, value);
	asm volatile("cld");
	local_irq_restore(flags);
}

#endif

static void fill_buffer(u64 seed)
{
	size_t i;

	for (i = 0; i < BUFFER_SIZE; i++)
		buffer[i] = seed + i;
	fill_seed = seed;
}

#ifdef CONFIG_X86

/* argv: string OP WIDTH DIR TARGET OFFSET COUNT */
static int do_string(int argc, char **argv)
{
	unsigned long count, elements;
	unsigned int width;
	bool movs, in, back;
	u64 offset, len;
	void __iomem *p;
	u8 *mem;
	int ret;

	if (argc != 7 || kstrtouint(argv[2], 0, &width) || !valid_width(width) ||
	    kstrtou64(argv[5], 0, &offset) || kstrtoul(argv[6], 0, &count))
		return -EINVAL;
	in = !strcmp(argv[1], "movs_in");
	movs = in || !strcmp(argv[1], "movs_out");
	back = !strcmp(argv[3], "back");
	if ((!movs && strcmp(argv[1], "stos")) || (!back && strcmp(argv[3], "fwd")))
		return -EINVAL;
	elements = count ?: 1;
	if (elements > BUFFER_SIZE / width)
		return -EINVAL;
	len = elements * width;
	/* From the back, OFFSET is the highest element: start the span lower. */
	if (back && offset < len - width)
		return -EINVAL;
	ret = target_span(argv[4], back ? offset - (len - width) : offset, len, &p);
	if (ret)
		return ret;

	/* Each direction starts at its first element, in both memories. */
	mem = (u8 __force *)p;
	if (back)
		mem += len - width;
	if (in)
		buffer_len = len;
	if (back) {
		if (in)
			string_op_back(true, width, buffer + len - width, mem, count, 0);
		else
			string_op_back(movs, width, mem, buffer + len - width, count,
				       fill_seed);
	} else {
		if (in)
			string_op(true, width, buffer, mem, count, 0);
		else
			string_op(movs, width, mem, buffer, count, fill_seed);
	}
	return 0;
}

/* argv: copy WIDTH SRC SRC_OFFSET DST DST_OFFSET COUNT */
static int do_copy(int argc, char **argv)
{
	void __iomem *src, *dst;
	unsigned int width;
	unsigned long count;
	int ret;

	if (argc != 7 || kstrtouint(argv[1], 0, &width) || !valid_width(width) ||
	    kstrtoul(argv[6], 0, &count) || !count || count > BUFFER_SIZE)
		return -EINVAL;
	ret = target_span_str(argv[2], argv[3], count * width, &src);
	if (!ret)
		ret = target_span_str(argv[4], argv[5], count * width, &dst);
	if (ret)
		return ret;
	string_op(true, width, (void __force *)dst, (void __force *)src, count, 0);
	return 0;
}
#endif

/* argv: fromio|toio TARGET OFFSET LEN, setio TARGET OFFSET LEN BYTE */
static int do_io_helper(int argc, char **argv)
{
	bool set = !strcmp(argv[0], "setio");
	unsigned int byte = 0;
	void __iomem *p;
	u64 len;
	int ret;

	if (argc != (set ? 5 : 4) || kstrtou64(argv[3], 0, &len) || !len ||
	    len > BUFFER_SIZE || (set && (kstrtouint(argv[4], 0, &byte) ||
					  byte > 0xff)))
		return -EINVAL;
	ret = target_span_str(argv[1], argv[2], len, &p);
	if (ret)
		return ret;
	if (set) {
		memset_io(p, byte, len);
	} else if (!strcmp(argv[0], "fromio")) {
		memcpy_fromio(buffer, p, len);
		buffer_len = len;
	} else {
		memcpy_toio(p, buffer, len);
	}
	return 0;
}

#ifdef CONFIG_X86
/*
 * Port I/O, as a driver does it (bats/ports.bats): argv: pio in WIDTH PORT,
 * pio out WIDTH PORT VALUE, pio ins WIDTH PORT COUNT (into the buffer),
 * pio outs WIDTH PORT COUNT (from the buffer). WIDTH 1, 2 or 4. Under
 * "repeat N", an in is done N times and timed (make bench).
 */
static u32 pio_in(unsigned int width, unsigned int port)
{
	return width == 1 ? inb(port) : width == 2 ? inw(port) : inl(port);
}

static int do_pio(int argc, char **argv, u64 count)
{
	ktime_t start;
	u64 done;
	bool value_arg = !strcmp(argv[1], "out") || !strcmp(argv[1], "outs") ||
			 !strcmp(argv[1], "ins");
	unsigned int width, port;
	u32 value = 0;

	if (argc != (value_arg ? 5 : 4) || kstrtouint(argv[2], 0, &width) ||
	    (width != 1 && width != 2 && width != 4) ||
	    kstrtouint(argv[3], 0, &port) || port > 0xffff ||
	    (value_arg && kstrtou32(argv[4], 0, &value)))
		return -EINVAL;
	if (!strcmp(argv[1], "in")) {
		start = ktime_get();
		for (done = 0; done < count; done++)
			value = pio_in(width, port);
		WRITE_ONCE(elapsed_ns, ktime_to_ns(ktime_sub(ktime_get(), start)));
		WRITE_ONCE(last_value, value);
	} else if (count != 1) {
		return -EINVAL;
	} else if (!strcmp(argv[1], "out")) {
		if (width == 1)
			outb(value, port);
		else if (width == 2)
			outw(value, port);
		else
			outl(value, port);
	} else if (!strcmp(argv[1], "ins") || !strcmp(argv[1], "outs")) {
		bool in = !strcmp(argv[1], "ins");

		if (!value || value * width > BUFFER_SIZE)
			return -EINVAL;
		if (in && width == 1)
			insb(port, buffer, value);
		else if (in && width == 2)
			insw(port, buffer, value);
		else if (in)
			insl(port, buffer, value);
		else if (width == 1)
			outsb(port, buffer, value);
		else if (width == 2)
			outsw(port, buffer, value);
		else
			outsl(port, buffer, value);
		if (in)
			buffer_len = value * width;
	} else {
		return -EINVAL;
	}
	return 0;
}
#else
/* No string instructions, no port I/O. */
static int do_string(int argc, char **argv)
{
	return -EOPNOTSUPP;
}

static int do_copy(int argc, char **argv)
{
	return -EOPNOTSUPP;
}

static int do_pio(int argc, char **argv, u64 count)
{
	return -EOPNOTSUPP;
}
#endif

/* argv: remap COUNT TARGET */
static int do_remap(int argc, char **argv)
{
	struct target *t;
	u64 count, done;
	ktime_t start;
	int ret;

	if (argc != 3 || kstrtou64(argv[1], 0, &count) || !count)
		return -EINVAL;
	t = find_target(argv[2]);
	if (!t)
		return -EINVAL;
	start = ktime_get();
	for (done = 0; done < count; done++) {
		ret = do_map(t, 0, DEFAULT_WINDOW);
		if (ret)
			return ret;
		do_unmap(t, 0);
	}
	WRITE_ONCE(elapsed_ns, ktime_to_ns(ktime_sub(ktime_get(), start)));
	return 0;
}

/*
 * argv: fault COUNT. Reads of the guard page after a vmalloc() area: not
 * present, so each takes a page fault that its exception fixup ends, the
 * least a traced access can cost.
 */
static int do_fault(int argc, char **argv)
{
	u64 count, done, value;
	char *area;
	ktime_t start;

	if (argc != 2 || kstrtou64(argv[1], 0, &count) || !count)
		return -EINVAL;
	area = vmalloc(PAGE_SIZE);
	if (!area)
		return -ENOMEM;
	start = ktime_get();
	for (done = 0; done < count; done++)
		if (!copy_from_kernel_nofault(&value, area + PAGE_SIZE,
					      sizeof(value)))
			break;
	WRITE_ONCE(elapsed_ns, ktime_to_ns(ktime_sub(ktime_get(), start)));
	vfree(area);
	return done == count ? 0 : -EIO;
}

/* vmap: a page of RAM in an area flagged VM_IOREMAP, not made by ioremap(). */
static int do_vmap(bool map)
{
	if (!map) {
		if (!vmap_addr)
			return -ENXIO;
		vunmap(vmap_addr);
		__free_page(vmap_page);
		vmap_addr = NULL;
		return 0;
	}
	if (vmap_addr)
		return -EBUSY;
	vmap_page = alloc_page(GFP_KERNEL);
	if (!vmap_page)
		return -ENOMEM;
	vmap_addr = vmap(&vmap_page, 1, VM_MAP | VM_IOREMAP, PAGE_KERNEL);
	if (!vmap_addr) {
		__free_page(vmap_page);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Whether a command only accesses a mapping, or touches no target: it
 * runs beside others (hold_leaf beside the accesses it is to delay).
 */
static bool shared_command(int argc, char **argv)
{
	return argc && (!strcmp(argv[0], "read") || !strcmp(argv[0], "write") ||
			!strcmp(argv[0], "repeat") || !strcmp(argv[0], "insn") ||
			!strcmp(argv[0], "hold_leaf") ||
			!strcmp(argv[0], "hold_fork"));
}

static int run_command(int argc, char **argv)
{
	struct target *t;
	u64 offset = 0, size = DEFAULT_WINDOW, count, seed;

	if (!argc)
		return -EINVAL;
	if (!strcmp(argv[0], "warn") && argc == 1) {
		WARN(1, "mmiotouch: warning requested by the harness self-test\n");
		return 0;
	}
	if (!strcmp(argv[0], "panic") && argc == 1)
		panic("mmiotouch: panic requested by the harness self-test\n");
	if (!strcmp(argv[0], "hang") && argc == 1) {
		pr_emerg("hanging with interrupts off, as asked\n");
		local_irq_disable();
		for (;;)
			cpu_relax();
	}
	if (!strcmp(argv[0], "repeat")) {
		if (argc < 3 || kstrtou64(argv[1], 0, &count) || !count)
			return -EINVAL;
		if (!strcmp(argv[2], "insn"))
			return do_insn(argc - 2, argv + 2, count);
		if (!strcmp(argv[2], "pio") && argc >= 6)
			return do_pio(argc - 2, argv + 2, count);
		return do_access(argc - 2, argv + 2, count);
	}
	if (!strcmp(argv[0], "read") || !strcmp(argv[0], "write"))
		return do_access(argc, argv, 1);
	if (!strcmp(argv[0], "insn"))
		return do_insn(argc, argv, 1);
	if (!strcmp(argv[0], "fault"))
		return do_fault(argc, argv);
	if ((!strcmp(argv[0], "vmap") || !strcmp(argv[0], "vunmap")) && argc == 1)
		return do_vmap(!strcmp(argv[0], "vmap"));
	if (!strcmp(argv[0], "string"))
		return do_string(argc, argv);
	if (!strcmp(argv[0], "copy"))
		return do_copy(argc, argv);
	if (!strcmp(argv[0], "fromio") || !strcmp(argv[0], "toio") ||
	    !strcmp(argv[0], "setio"))
		return do_io_helper(argc, argv);
	if (!strcmp(argv[0], "remap"))
		return do_remap(argc, argv);
	if (!strcmp(argv[0], "pio") && argc >= 4)
		return do_pio(argc, argv, 1);
	if (!strcmp(argv[0], "hold_leaf"))
		return do_hold(argc, argv, "set_leaf_armed", false);
	if (!strcmp(argv[0], "hold_fork"))
		return do_hold(argc, argv, "copy_thread", true);
	if (!strcmp(argv[0], "reclaim_watch"))
		return do_reclaim_watch(argc, argv);
	if (!strcmp(argv[0], "fill")) {
		if (argc != 2 || kstrtou64(argv[1], 0, &seed))
			return -EINVAL;
		fill_buffer(seed);
		return 0;
	}
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
	if (!strcmp(argv[0], "unmap") && (argc == 2 || argc == 3)) {
		if (argc == 3 && kstrtou64(argv[2], 0, &offset))
			return -EINVAL;
		return do_unmap(t, offset);
	}
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

	if (shared_command(argc, argv)) {
		down_read(&touch_rwsem);
		ret = run_command(argc, argv);
		up_read(&touch_rwsem);
	} else {
		down_write(&touch_rwsem);
		ret = run_command(argc, argv);
		up_write(&touch_rwsem);
	}
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
	*val = READ_ONCE(*(u64 *)data);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(value_fops, value_get, NULL, "0x%llx\n");
DEFINE_DEBUGFS_ATTRIBUTE(elapsed_fops, value_get, NULL, "%llu\n");
#ifdef CONFIG_ARM64
DEFINE_DEBUGFS_ATTRIBUTE(signed_fops, value_get, NULL, "%lld\n");
#endif

/* "buffer": the bytes of the last movs_in or fromio, in hex, one line. */
static int buffer_show(struct seq_file *m, void *v)
{
	size_t i;

	down_read(&touch_rwsem);
	for (i = 0; i < buffer_len; i++)
		seq_printf(m, "%s%02x", i ? " " : "", buffer[i]);
	up_read(&touch_rwsem);
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(buffer);

static int mapped_show(struct seq_file *m, void *v)
{
	int i;

	down_read(&touch_rwsem);
	for (i = 0; i < ARRAY_SIZE(targets); i++)
		if (targets[i].base)
			seq_printf(m, "%s 0x%lx 0x%llx\n", targets[i].name,
				   (unsigned long)targets[i].base,
				   (unsigned long long)targets[i].size);
	up_read(&touch_rwsem);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mapped);

#ifdef CONFIG_ARM64
/*
 * "leaves": the page-table leaves of every mapped target, one line each,
 * "START-END ENTRY LEVEL", as the tests read x86's page-table dump. arm64
 * maps no block in ioremap() space while its dump (PTDUMP_DEBUGFS) is
 * built, and exports no kernel page table: the kernel's walk from
 * init_mm, found through kallsyms.
 */
static struct mm_struct *kernel_mm;

static struct mm_struct *find_kernel_mm(void)
{
	struct kprobe probe = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);

	if (register_kprobe(&probe))
		return NULL;
	lookup = (void *)probe.addr;
	unregister_kprobe(&probe);
	return (struct mm_struct *)lookup("init_mm");
}

/* Print the leaf that maps @addr; return its end, or 0 when unmapped. */
static unsigned long show_leaf(struct seq_file *m, unsigned long addr)
{
	pgd_t *pgdp = pgd_offset_pgd(kernel_mm->pgd, addr);
	unsigned long size, entry;
	const char *level;
	p4d_t *p4dp;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;

	p4dp = p4d_offset(pgdp, addr);
	if (pgd_none(READ_ONCE(*pgdp)) || p4d_none(READ_ONCE(*p4dp)))
		return 0;
	pudp = pud_offset(p4dp, addr);
	pud = READ_ONCE(*pudp);
	if (pud_none(pud))
		return 0;
	if (pud_leaf(pud)) {
		level = "pud", size = PUD_SIZE;
		entry = pud_val(pud);
		goto show;
	}
	/* Under a table only: a block maps device memory, not a table. */
	pmdp = pmd_offset(pudp, addr);
	pmd = READ_ONCE(*pmdp);
	if (pmd_none(pmd))
		return 0;
	if (pmd_leaf(pmd)) {
		level = "pmd", size = PMD_SIZE;
		entry = pmd_val(pmd);
	} else {
		level = "pte", size = PAGE_SIZE;
		entry = pte_val(__ptep_get(pte_offset_kernel(pmdp, addr)));
	}
show:
	addr &= ~(size - 1);
	seq_printf(m, "0x%016lx-0x%016lx 0x%016lx %s\n", addr, addr + size,
		   entry, level);
	return addr + size;
}

static int leaves_show(struct seq_file *m, void *v)
{
	unsigned long addr, end;
	int i;

	if (!kernel_mm)
		return -ENOENT;
	down_read(&touch_rwsem);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		if (!targets[i].base)
			continue;
		addr = (unsigned long)targets[i].base;
		end = addr + targets[i].size;
		while (addr && addr < end) {
			addr = show_leaf(m, addr);
			cond_resched();
		}
	}
	up_read(&touch_rwsem);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(leaves);
#endif

static int __init mmiotouch_init(void)
{
	touch_dir = debugfs_create_dir("mmiotouch", NULL);
	debugfs_create_file("ctl", 0200, touch_dir, NULL, &ctl_fops);
	debugfs_create_file_unsafe("value", 0400, touch_dir, &last_value,
				   &value_fops);
	debugfs_create_file_unsafe("elapsed_ns", 0400, touch_dir, &elapsed_ns,
				   &elapsed_fops);
	debugfs_create_file("buffer", 0400, touch_dir, NULL, &buffer_fops);
	debugfs_create_file("mapped", 0400, touch_dir, NULL, &mapped_fops);
#ifdef CONFIG_ARM64
	debugfs_create_file_unsafe("value2", 0400, touch_dir, &insn_value2,
				   &value_fops);
	debugfs_create_file_unsafe("base", 0400, touch_dir, &insn_base,
				   &signed_fops);
	kernel_mm = find_kernel_mm();
	debugfs_create_file("leaves", 0400, touch_dir, NULL, &leaves_fops);
#endif
	return 0;
}

static void __exit mmiotouch_exit(void)
{
	int i;

	debugfs_remove_recursive(touch_dir);
	if (hold_ms)
		unregister_kprobe(&hold_kprobe);
	if (reclaim_watching)
		unregister_kprobe(&reclaim_kprobe);
	do_vmap(false);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		do_unmap(&targets[i], 0);
		if (targets[i].pdev) {
			pci_disable_device(targets[i].pdev);
			pci_dev_put(targets[i].pdev);
		}
	}
}

module_init(mmiotouch_init);
module_exit(mmiotouch_exit);
MODULE_DESCRIPTION("Drive QEMU devices through MMIO for the mmiotrace tests");
MODULE_LICENSE("GPL");
