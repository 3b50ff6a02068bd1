# Runtime-controlled mmiotrace: kernel series, tool, guest image and tests.
# Everything kernel-side runs in QEMU only; nothing here touches the host's
# kernel. Main entry points: make demo, make check (see README.md).

# SANITIZE: 0 (none), 1 or kasan (a KASAN/UBSAN kernel), kcsan (a KCSAN
# kernel), fuzz (KASAN/UBSAN and kcov on every object: make fuzz DRIVER=),
# each with its own build, module and image (FLAVOUR: -kasan, -kcsan,
# -fuzz). Under TCG a sanitizer kernel is slow enough for RCU's 21 s stall
# heuristics to fire while a CPU-bound test starves the grace-period thread
# on the one CPU mmiotrace leaves online; it gets 300 s (real stalls still
# report). KASAN runs about 5x slower than the normal guest: every timeout
# of the test run is stretched 10x (the 20 enable/disable cycles take 628 s
# there); KCSAN, about 7x slower (the guest boot: 763 s against 106 s),
# gets the same.
#
# PRODUCTION=1: the production kernel instead (kconfig/production/: the
# test kernel's options without debug.config), what make bench measures
# besides the debug kernel and make deb packages by default; FLAVOUR -prod.
SANITIZE   ?= 0
PRODUCTION ?= 0
$(if $(filter-out 0 1 kasan kcsan fuzz,$(SANITIZE)),$(error SANITIZE must be 0, 1 (or kasan), kcsan or fuzz, not '$(SANITIZE)'))
$(if $(filter-out 0 1,$(PRODUCTION)),$(error PRODUCTION must be 0 or 1, not '$(PRODUCTION)'))
$(if $(filter-out 0,$(SANITIZE)),$(if $(filter 1,$(PRODUCTION)),$(error PRODUCTION=1 has no sanitizer)))
SANITIZER  := $(patsubst 1,kasan,$(filter-out 0,$(SANITIZE)))
FLAVOUR    := $(if $(SANITIZER),-$(SANITIZER))$(if $(filter 1,$(PRODUCTION)),-prod)
ifneq ($(SANITIZER),)
# KASAN under TCG is slow enough for a long driver probe at boot to look
# like a soft lockup at the default 20 s: 120 s, as for RCU stalls.
export GUEST_KERNEL_ARGS := rcupdate.rcu_cpu_stall_timeout=300 watchdog_thresh=60
export TIMEOUT_SCALE := 10
endif

BUILD      := build
SRC        := $(BUILD)/linux
KOBJ       := $(BUILD)/kobj$(FLAVOUR)
KERNEL     := $(KOBJ)/arch/x86/boot/bzImage
MODULE_DIR := $(BUILD)/module$(FLAVOUR)
MODULE     := $(MODULE_DIR)/mmiotouch.ko
# The test modules' sources: mmiotouch, and fuzztarget (bats/fuzz.bats).
MODULE_SRCS := bats/module/mmiotouch.c bats/module/fuzztarget.c bats/module/Kbuild
FUZZ_MODULE := $(MODULE_DIR)/fuzztarget.ko
# The kernel's own modules (nvme), installed for the guest's modprobe.
MODROOT    := $(KOBJ)/modroot
IMAGE      := $(BUILD)/guest$(FLAVOUR).cpio.gz
CHECK_DIR  := $(BUILD)/check$(FLAVOUR)
# make check-arm64's results (its boots: bats/boots/*.boot with ARCH=arm64).
ARM64_CHECK_DIR := $(BUILD)/check-arm64
# Every bats/tools/NAME.c becomes /usr/bin/NAME in the guest.
TOOLS      := $(patsubst bats/tools/%.c,$(BUILD)/tools/%,$(wildcard bats/tools/*.c))
MMIOCTL    := $(BUILD)/ctl-tool/static/mmioctl
# The host's, with register maps (libxml2): decode, stat, diff, bench.
HOST_MMIOCTL := $(BUILD)/ctl-tool/mmioctl
CTL_SOURCES := ctl-tool/Makefile ctl-tool/mmioctl.c $(wildcard $(addprefix ctl-tool/,$(addsuffix /*.[ch],common control readers)))
TARBALL    := /usr/src/linux-source-6.12.tar.xz
JOBS       ?= $(shell nproc)
ACCEL      ?= auto
export ACCEL
export ACCEL_CACHE := $(abspath $(BUILD))/accel

PACKAGES := linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev \
	cpio kmod qemu-system-x86 busybox-static bash-static bats git perl python3 python3-ply python3-git groff-base gdb \
	libxml2-dev trace-cmd librsvg2-bin
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

PATCHES   := $(shell sed -e '/^\#/d' -e '/^$$/d' -e 's|^|patches/|' patches/series)
PROD_FRAGMENTS := kconfig/base.config kconfig/devices.config kconfig/mmiotrace.config \
	kconfig/production/production.config
FRAGMENTS := $(if $(filter 1,$(PRODUCTION)),$(PROD_FRAGMENTS), \
	$(sort $(wildcard kconfig/*.config)) $(if $(SANITIZER),kconfig/sanitize/$(SANITIZER).config))
GUEST_FILES := initramfs/init initramfs/build.sh initramfs/demo.sh initramfs/pci.sh \
	initramfs/shell.sh initramfs/shellrc docs/mmioctl.1 \
	bench/guest.sh bench/remap.sh $(wildcard fuzz/*) \
	README.md ctl-tool/mmioctl.bash-completion \
	$(wildcard bats/*.bats bats/*.bash bats/*.ere bats/*/*.bats bats/boot/*.sh bats/harness/fixtures/*)

.PHONY: all deps kernel image check check-quick stress fuzz fuzz-campaign fuzz-parsers demo shell deb check-deb bench bench-decode \
	series-check refresh-patches help clean arm64-kernel arm64-boot arm64-image check-arm64
all: image

# Install what is missing, Debian packages only; a no-op when all are there.
deps:
	@missing=$$(for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing" $$missing; \
		$(SUDO) apt-get update -q >/dev/null && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null; \
	fi

# The unpacked linux-source, committed as tag "pristine" so that the series
# can be re-applied exactly. Without gc: its tens of thousands of loose objects would start
# a repack of the tree in the background of the kernel's build.
$(SRC)/.pristine: | deps
	@echo "kernel: unpacking $(TARBALL)"
	@rm -rf $(SRC) $(BUILD)/linux-source-6.12
	@mkdir -p $(BUILD)
	@tar -C $(BUILD) -xf $(TARBALL)
	@mv $(BUILD)/linux-source-6.12 $(SRC)
	@cd $(SRC) && git init -q && git config gc.auto 0 && git add -A -f && \
		git -c user.name=mmiotrace-build -c user.email=build@localhost \
			commit -q -m pristine && git tag pristine
	@touch $@

$(SRC)/.applied: $(SRC)/.pristine patches/series $(PATCHES) patches/apply.sh
	@patches/apply.sh $(SRC) patches/series
	@touch $@

# The edit loop: commit in build/linux, then write patches/ from those
# commits (git format-patch on top of "pristine"). The tree already holds
# the series, so it is not applied again.
refresh-patches: | $(SRC)/.pristine
	@patches/refresh.sh $(SRC) patches
	@touch $(SRC)/.applied

$(KOBJ)/.config: $(SRC)/.applied $(FRAGMENTS) kconfig/merge.sh
	@mkdir -p $(KOBJ)
	@kconfig/merge.sh $(SRC) $(KOBJ) $(FRAGMENTS)
	@touch $@

# KCSAN is off for all of arch/x86/mm and kernel/trace (KCSAN_SANITIZE := n
# in their Makefiles), where x86's backend and the tracer's core switch
# live; kernel/trace/mmiotrace, the core, is instrumented as any directory.
# Kbuild's per-object KCSAN_SANITIZE_<stem>.o wins over that, and given on
# make's command line it reaches every sub-make: the KCSAN kernel opts the
# tracer's objects in, and only those, without patching the kernel's
# Makefiles. Listed from the tree when the recipe runs, after the series is
# applied.
TRACER_SRCS = $(shell cd $(SRC) && ls arch/x86/mm/kmmio*.c kernel/trace/mmiotrace/*.c \
	kernel/trace/trace_mmiotrace.c 2>/dev/null)
KBUILD_SANITIZE = $(if $(filter kcsan,$(SANITIZER)), \
	$(patsubst %.c,KCSAN_SANITIZE_%.o=y,$(notdir $(TRACER_SRCS))))

$(KERNEL): $(KOBJ)/.config $(SRC)/.applied
	@echo "kernel: building (log: $(KOBJ)/build.log)"
	@$(MAKE) -s -C $(SRC) O=$(abspath $(KOBJ)) -j$(JOBS) $(strip $(KBUILD_SANITIZE)) all \
		> $(KOBJ)/build.log 2>&1 || \
		{ tail -n 30 $(KOBJ)/build.log; echo "kernel: build failed, log: $(KOBJ)/build.log"; exit 1; }
	@touch $@
kernel: $(KERNEL)

# After modules_install: two makes in KOBJ at once are not safe.
$(MODULE): $(MODULE_SRCS) $(KERNEL) | $(MODROOT)/.installed
	@mkdir -p $(MODULE_DIR)
	@cp $(MODULE_SRCS) $(MODULE_DIR)/
	@$(MAKE) -s -C $(KOBJ) M=$(abspath $(MODULE_DIR)) modules > $(MODULE_DIR)/build.log 2>&1 || \
		{ cat $(MODULE_DIR)/build.log; exit 1; }

$(MODROOT)/.installed: $(KERNEL)
	@rm -rf $(MODROOT)
	@$(MAKE) -s -C $(SRC) O=$(abspath $(KOBJ)) INSTALL_MOD_PATH=$(abspath $(MODROOT)) \
		INSTALL_MOD_STRIP=1 modules_install > $(KOBJ)/modules_install.log 2>&1 || \
		{ cat $(KOBJ)/modules_install.log; exit 1; }
	@touch $@

# Guest-side test tools, static: the image has no libc.
$(BUILD)/tools/%: bats/tools/%.c | deps
	@mkdir -p $(@D)
	@gcc -static -O2 -Wall -Wextra -Werror -o $@ $<

# The kernel's own x86 selftests of the paths that tracing a user mapping
# shares (bats/x86-selftests.bats says which it leaves out and why): 64-bit,
# static, with their Makefile's flags and the host's uapi headers (these
# need nothing newer; a headers_install of the tree cost 45 s of every
# make check); stdout line-buffered (bats/tools/linebuf.h).
X86_SELFTESTS := mov_ss_trap single_step_syscall sigreturn syscall_arg_fault ioperm iopl
X86_SELFTEST_DIR := $(BUILD)/x86-selftests
X86_SELFTEST_BINS := $(X86_SELFTESTS:%=$(X86_SELFTEST_DIR)/%_64)
$(X86_SELFTEST_DIR)/%_64: $(SRC)/.applied bats/tools/linebuf.h | deps
	@mkdir -p $(@D)
	@gcc -m64 -static -O2 -std=gnu99 -pthread -Wall -no-pie -DCAN_BUILD_64 \
		-include bats/tools/linebuf.h \
		-o $@ $(SRC)/tools/testing/selftests/x86/$*.c -lrt -ldl

$(MMIOCTL): $(CTL_SOURCES) | deps
	@$(MAKE) -s -C ctl-tool O=$(abspath $(BUILD))/ctl-tool $(abspath $@)
$(HOST_MMIOCTL): $(CTL_SOURCES) | deps
	@$(MAKE) -s -C ctl-tool O=$(abspath $(BUILD))/ctl-tool $(abspath $@)

$(IMAGE): $(GUEST_FILES) $(MODULE) $(MODROOT)/.installed $(TOOLS) $(X86_SELFTEST_BINS) $(MMIOCTL)
	@initramfs/build.sh $(abspath $@) $(abspath $(BUILD))/guest-root \
		$(abspath $(MODULE)) $(abspath $(FUZZ_MODULE)) $(abspath $(MODROOT)) $(abspath $(TOOLS)) \
		$(abspath $(X86_SELFTEST_BINS)) $(abspath $(MMIOCTL))
image: $(IMAGE)

# make check: every part a target of its own, stamped, run in parallel
# (CHECK_JOBS at a time), in the shape of the kernel's kselftest Makefile:
# the host's unit tests, checkpatch per patch, the harness self-tests, and
# one guest boot per bats/boots/NAME.boot (bats/harness/boot.sh), each
# writing CHECK_DIR/NAME.tap and NAME.wall, and NAME.ok when it passed. A
# part runs again only when what it tests changed (RERUN=1: anyway); the
# summary (bats/harness/summary.sh) ends with "N passed, N failed".
# Knobs: BOOTS="guest capture" (those boots only), BATS="ranges.bats ..."
# (the boots that run them, only them), TESTS=REGEX (bats --filter), RERUN=1
# (run the selected parts even if up to date). check-quick leaves out the
# slow tier; a sanitizer (SANITIZE=1, kasan, kcsan) adds the stress tier
# (see stress).
CHECK_JOBS ?= $(JOBS)
BOOTS      ?=
BATS       ?=
TESTS      ?=
RERUN      ?= 0
CHECK_TIERS = quick slow $(if $(SANITIZER),stress)
HOST_OBJ   := $(BUILD)/ctl-tool
# What every boot tests besides its own files; the image itself is only
# order-only, so that a change to one bats file reruns only its boots.
# (boots.sh only selects and orders: what it selects is in the stamp of
# what narrows each boot.)
BOOT_DEPS  := $(KERNEL) $(MODULE) $(MODROOT)/.installed $(TOOLS) $(X86_SELFTEST_BINS) $(MMIOCTL) \
	initramfs/init initramfs/build.sh initramfs/pci.sh initramfs/run-qemu.sh \
	bats/helpers.bash bats/splats.ere bats/harness/boot.sh \
	bats/harness/part.sh bats/harness/verdict.sh bats/harness/oracle.py
HARNESS    := $(wildcard bats/harness/*.sh bats/harness/*.py bats/harness/fixtures/*) \
	initramfs/run-qemu.sh initramfs/init
CHECKPATCH_TAPS = $(patsubst patches/%,$(CHECK_DIR)/checkpatch/%.tap,$(PATCHES))

# Each boot's files, from its data file.
$(BUILD)/boots.mk: $(wildcard bats/boots/*.boot) bats/harness/boots.sh
	@mkdir -p $(@D)
	@bats/harness/boots.sh rules > $@
include $(BUILD)/boots.mk

# check TIERS [ARCH DIR]: select the parts, run those out of date, sum
# up. First what narrows each boot (its stamp), so that with -j make starts
# the parts in the order given, longest first; the BAR probe goes before
# the first boot that needs it. ARCH and DIR: another architecture's boots
# and results (check-arm64).
define check_run
	@mkdir -p $(or $(3),$(CHECK_DIR)) && touch $(or $(3),$(CHECK_DIR))/.started
	@parts="$$(CHECK_DIR=$(or $(3),$(CHECK_DIR)) CHECK_BOOTS='$(BOOTS)' CHECK_BATS='$(BATS)' CHECK_TESTS='$(TESTS)' \
		CHECK_ARCH=$(or $(2),x86_64) bats/harness/boots.sh parts $(1))" || exit 1; \
	echo "check: $$parts"; \
	targets="" sels=""; \
	for part in $$parts; do \
		[ "$(RERUN)" = 0 ] || rm -f $(or $(3),$(CHECK_DIR))/$$part.ok; \
		[ ! -f bats/boots/$$part.boot ] || sels="$$sels $(or $(3),$(CHECK_DIR))/selection/$$part"; \
		if grep -qs _BAR0 bats/boots/$$part.boot; then \
			case $$targets in *pci.env*) ;; *) targets="$$targets $(or $(3),$(CHECK_DIR))/pci.env" ;; esac; \
		fi; \
		targets="$$targets $(or $(3),$(CHECK_DIR))/$$part.ok"; \
	done; \
	{ [ -z "$$sels" ] || $(MAKE) --no-print-directory -s $$sels; } && \
	$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) $$targets || true; \
	bats/harness/summary.sh $(or $(3),$(CHECK_DIR)) $$parts
endef
# The host's mmioctl first: decode.sh and the host tests share its build.
# The kernel and the image are the boots' prerequisites, not check's: the
# parts that need neither (host, checkpatch) run beside the kernel's build,
# in its serial stretches (unpacking, linking), not after it.
check: $(HOST_MMIOCTL)
	$(call check_run,$(CHECK_TIERS))
check-quick: $(HOST_MMIOCTL)
	$(call check_run,$(filter-out slow,$(CHECK_TIERS)))

$(CHECK_DIR)/host.ok: $(shell find ctl-tool -type f) $(HOST_MMIOCTL) bats/harness/host.sh bats/harness/part.sh
	@bats/harness/part.sh $(CHECK_DIR) host bats/harness/host.sh $(abspath $(HOST_OBJ)) $(abspath $(CHECK_DIR))

$(CHECK_DIR)/checkpatch/%.tap: patches/% bats/harness/checkpatch.sh | $(SRC)/.applied
	@mkdir -p $(@D)
	@bats/harness/checkpatch.sh $(SRC) $< $(@:.tap=.log) > $@.new && mv $@.new $@
$(CHECK_DIR)/checkpatch.ok: $(CHECKPATCH_TAPS) patches/series bats/harness/part.sh
	@echo "check: checkpatch --strict on $(words $(PATCHES)) patches"
	@bats/harness/part.sh $(CHECK_DIR) checkpatch cat $(CHECKPATCH_TAPS)

$(CHECK_DIR)/selftest.ok: $(HARNESS) | $(KERNEL) $(IMAGE)
	@bats/harness/part.sh $(CHECK_DIR) selftest bats/harness/selftest.sh $(KERNEL) $(IMAGE) $(CHECK_DIR)/selftest

# make shell as a person uses it (bats/harness/shell.sh): the inner make
# gets this one's variables and job slots.
$(CHECK_DIR)/shell.ok: bats/harness/shell.sh initramfs/shell.sh initramfs/shellrc \
		initramfs/init initramfs/run-qemu.sh | $(KERNEL) $(IMAGE)
	+@bats/harness/part.sh $(CHECK_DIR) shell bats/harness/shell.sh "$(MAKE)" $(CHECK_DIR)/shell

# The BARs that kernel arguments name (EDU_BAR0, E1000_BAR0): the devices'
# order in run-qemu.sh fixes them; a short boot reads them.
# pci_probe KERNEL,IMAGE,DIR,RUN-QEMU OPTIONS,NIC DEVICE ID
define pci_probe
	@echo "check: probe boot for the BAR addresses (log: $(3)/pci/console.log)"
	@initramfs/run-qemu.sh $(4) -t $$((120 * $${TIMEOUT_SCALE:-1})) $(1) $(2) $(3)/pci \
		'. /opt/mmio/pci.sh; NIC_DEVICE=$(5); echo EDU_BAR0=$$(edu_bar0); echo E1000_BAR0=$$(e1000_bar0)' \
		> /dev/null || { echo "check: the probe boot failed, logs: $(3)/pci"; exit 1; }
	@grep -E '^[A-Z0-9_]+=0x[0-9a-f]+$$' $(3)/pci/output.log > $@.new && mv $@.new $@
endef
$(CHECK_DIR)/pci.env: $(KERNEL) initramfs/run-qemu.sh initramfs/pci.sh | $(IMAGE)
	$(call pci_probe,$(KERNEL),$(IMAGE),$(CHECK_DIR),,0x100e)

# What narrowed a boot's last run (BATS, TESTS): a change reruns it.
$(CHECK_DIR)/selection/%: FORCE
	@mkdir -p $(@D)
	@sel=$$(CHECK_BATS='$(BATS)' CHECK_TESTS='$(TESTS)' bats/harness/boots.sh selection $*) && \
		{ [ "$$sel" = "$$(cat $@ 2>/dev/null)" ] || echo "$$sel" > $@; }

$(patsubst %,$(CHECK_DIR)/%.ok,$(BOOT_NAMES)): $(CHECK_DIR)/%.ok: bats/boots/%.boot \
		$(CHECK_DIR)/selection/% $(BOOT_DEPS) | $(IMAGE)
	@CHECK_BATS='$(BATS)' CHECK_TESTS='$(TESTS)' HOST_MMIOCTL=$(abspath $(HOST_MMIOCTL)) \
		bats/harness/part.sh $(CHECK_DIR) $* bats/harness/boot.sh $(KERNEL) $(IMAGE) $(CHECK_DIR) $*
FORCE:

# Everything in check, plus the bench loop's short run, the full fuzz
# corpus (2000 writes per file), STRESS_SECONDS of concurrent stress on 2
# CPUs and on maxcpus=1 (the stress tier of bats/boots/), and FUZZ_SECONDS
# of libFuzzer on mmioctl's parsers; all run again (RERUN=1), in
# build/stress$(FLAVOUR): make stress SANITIZE=kcsan runs all of it on the
# KCSAN kernel. Then, as it is too slow for CI, check (its stress tier
# included) on each sanitizer kernel STRESS_SANITIZE names: 1 or kasan (the
# default), kcsan, "kasan kcsan", 0 for none.
STRESS_SECONDS  ?= 120
FUZZ_SECONDS    ?= 60
STRESS_SANITIZE ?= 1
STRESS_SANITIZERS := $(patsubst 1,kasan,$(filter-out 0,$(STRESS_SANITIZE)))
$(if $(filter-out kasan kcsan,$(STRESS_SANITIZERS)),$(error STRESS_SANITIZE must be 0, 1, kasan, kcsan or "kasan kcsan", not '$(STRESS_SANITIZE)'))
export STRESS_SECONDS
stress: $(KERNEL) $(IMAGE) fuzz
	@$(MAKE) --no-print-directory check CHECK_DIR=$(BUILD)/stress$(FLAVOUR) \
		CHECK_TIERS="quick slow stress bench" RERUN=1
ifeq ($(SANITIZE),0)
	@for s in $(STRESS_SANITIZERS); do \
		echo "stress: the same on the $$s kernel (make check SANITIZE=$$s)"; \
		$(MAKE) --no-print-directory check SANITIZE=$$s || exit 1; \
	done
endif

# fuzz_parse: the argument and trace line parsers; fuzz_map: the register
# map reader (rnndb XML) and decoding. FUZZ_SECONDS each.
FUZZERS := $(BUILD)/ctl-tool/fuzz_parse $(BUILD)/ctl-tool/fuzz_map
$(FUZZERS): $(wildcard ctl-tool/fuzz/*.c) $(CTL_SOURCES)
	@$(MAKE) -s deps PACKAGES=clang
	@$(MAKE) -s -C ctl-tool O=$(abspath $(BUILD))/ctl-tool fuzz

# The corpora in the repository stay small: new finds go to build/.
# make fuzz DRIVER=NAME [TIME=10m]: a campaign of mmioctl fuzz on the probe
# of an in-tree driver (e1000, nvme; fuzztarget, the test module's planted
# bug), on the fuzz kernel (SANITIZE=fuzz: KASAN, kcov everywhere; its own
# build), the guest restarted whenever it dies until TIME (s, m or h) is
# spent; everything in build/fuzz-NAME (fuzz/campaign.sh). Without
# DRIVER: libFuzzer on mmioctl's parsers, FUZZ_SECONDS each.
DRIVER ?=
TIME   ?= 10m
ifneq ($(DRIVER),)
fuzz:
	@$(MAKE) --no-print-directory fuzz-campaign SANITIZE=fuzz
else
fuzz: fuzz-parsers
endif
fuzz-campaign: $(KERNEL) $(IMAGE)
	@fuzz/campaign.sh $(KERNEL) $(IMAGE) $(BUILD)/fuzz-$(DRIVER) $(DRIVER) $(TIME)

fuzz-parsers: $(FUZZERS)
	@for f in parse map; do \
		corpus=ctl-tool/fuzz/corpus$$( [ $$f = parse ] || echo -$$f ); \
		rm -rf $(BUILD)/fuzz-corpus-$$f && mkdir -p $(BUILD)/fuzz-corpus-$$f; \
		echo "fuzz: mmioctl $$f for $(FUZZ_SECONDS)s (log: $(BUILD)/fuzz-$$f.log)"; \
		$(BUILD)/ctl-tool/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$(BUILD)/fuzz-corpus-$$f $$corpus > $(BUILD)/fuzz-$$f.log 2>&1 || \
			{ tail -n 30 $(BUILD)/fuzz-$$f.log; echo "fuzz: crash, see $(BUILD)/fuzz-$$f.log"; exit 1; }; \
		grep -E '^stat::number_of_executed_units' $(BUILD)/fuzz-$$f.log | sed "s/^/fuzz: $$f: /"; \
	done

# make shell: the guest with a shell on this terminal (its console), the
# test devices (DEVICES), CPUS CPUs and kernel arguments KARGS. CMD='...'
# runs one command instead, prints its output and fails as it fails (make
# says "Error N" with its status; shell.log has the run).
DEVICES ?= edu vga ivshmem e1000 nvme
CPUS    ?= 2
KARGS   ?=
CMD     ?=
export CMD
shell: $(KERNEL) $(IMAGE)
ifeq ($(CMD),)
	@initramfs/run-qemu.sh -i -c $(CPUS) -d '$(DEVICES)' -k '$(KARGS)' $(KERNEL) $(IMAGE) $(BUILD)/shell
else
	@status=0; initramfs/run-qemu.sh -t 600 -c $(CPUS) -d '$(DEVICES)' -k '$(KARGS)' \
		$(KERNEL) $(IMAGE) $(BUILD)/shell "sh /opt/mmio/shell.sh setup; $$CMD" \
		> $(BUILD)/shell.log 2>&1 || status=$$?; \
	cat $(BUILD)/shell/output.log; \
	[ "$$status" = 0 ] || { echo "shell: '$$CMD' exited with status $$status$$( \
		[ $$status -lt 124 ] || echo ' (the guest timed out or died: $(BUILD)/shell/console.log)')" >&2; \
		exit $$status; }
endif

demo: $(KERNEL) $(IMAGE)
	@initramfs/run-qemu.sh -t 300 $(KERNEL) $(IMAGE) $(BUILD)/demo/guest 'sh /opt/mmio/demo.sh' || \
		{ echo "demo: guest failed ($$(cat $(BUILD)/demo/guest/status)), log: $(BUILD)/demo/guest/console.log"; exit 1; }
	@cp $(BUILD)/demo/guest/output.log $(BUILD)/demo/trace.txt
	@cat $(BUILD)/demo/trace.txt
	@echo "demo: trace saved as $(BUILD)/demo/trace.txt"

# make deb: Debian packages of the patched kernel (image, headers) and of
# mmioctl, in build/deb. The kernel from KCONFIG (a configuration such as
# /boot/config-$$(uname -r), with what the tracer needs merged in:
# packaging/kernel-config.sh), by default the production kernel of
# kconfig/production/ (PROD_FRAGMENTS). Its own build directory.
# check-deb: the packages of the default configuration, their contents,
# lintian, the mmioctl package installed into a scratch root, the kernel
# package booted with guest tests (packaging/check-deb.sh). Nothing here
# installs a package on this machine.
KCONFIG     ?=
DEB_DIR     := $(BUILD)/deb
DEB_OBJ     := $(DEB_DIR)/obj
DEB_PACKAGES := dpkg-dev debhelper fakeroot rsync
deb: $(SRC)/.applied
	@$(MAKE) -s deps PACKAGES="$(DEB_PACKAGES)"
	@mkdir -p $(DEB_OBJ)
	@$(if $(KCONFIG),packaging/kernel-config.sh $(SRC) $(DEB_OBJ) $(KCONFIG), \
		kconfig/merge.sh $(SRC) $(DEB_OBJ) $(PROD_FRAGMENTS))
	@packaging/kernel-deb.sh $(SRC) $(abspath $(DEB_OBJ)) $(abspath $(DEB_DIR)) $(words $(PATCHES)) $(JOBS)
	@packaging/mmioctl-deb.sh ctl-tool $(abspath $(DEB_DIR)) $(words $(PATCHES))

check-deb: $(TOOLS) $(X86_SELFTEST_BINS) $(MMIOCTL) $(HOST_MMIOCTL)
	@$(if $(KCONFIG),$(error check-deb tests the default configuration's packages: no KCONFIG))
	@$(MAKE) --no-print-directory deb
	@$(MAKE) -s deps PACKAGES="lintian linux-config-6.12"
	@packaging/check-deb.sh $(abspath $(DEB_DIR)) $(abspath $(BUILD))

# Timings in the guest (not part of check: no timing assertions there);
# first the loop once with tiny counts, as a test that every figure prints.
# On the debug kernel of make check, then the same on the production kernel
# (PRODUCTION=1, its own build, module and image; in build/bench-prod); the
# report puts the production tables first (build/bench/results.md).
# STOCK=1 also builds the unpatched kernel and runs the same loop on it,
# then BENCH_PAIRS short boots of each kernel in turn that only time
# ioremap()+iounmap() (bench/remap.sh): under TCG one boot of each cannot
# compare the kernels to 5%.
BENCH_COUNT   ?= 5000
BENCH_REPEATS ?= 11
BENCH_PAIRS   ?= 8
STOCK         ?= 0
STOCK_DIR     := $(BUILD)/stock$(FLAVOUR)
BENCH_DIR     := $(BUILD)/bench$(FLAVOUR)
STOCK_KERNEL  := $(STOCK_DIR)/obj/arch/x86/boot/bzImage
STOCK_IMAGE   := $(STOCK_DIR)/guest.cpio.gz
BENCH_RUN      = bash /opt/mmio/bench/guest.sh $(BENCH_COUNT) $(BENCH_REPEATS)
BENCH_REMAP    = bash /opt/mmio/bench/remap.sh $(BENCH_COUNT) $(BENCH_REPEATS)

bench: $(KERNEL) $(IMAGE) $(if $(filter 1,$(STOCK)),$(STOCK_IMAGE))
	@echo "bench: the loop once with tiny counts (bats/boots/bench.boot)"
	@$(MAKE) --no-print-directory check CHECK_DIR=$(BENCH_DIR)/check BOOTS=bench BATS= TESTS=
	@$(MAKE) -s deps PACKAGES=gnuplot-nox
	@rm -rf $(BENCH_DIR)/pairs
	@mkdir -p $(BENCH_DIR)
	@initramfs/run-qemu.sh -t 1800 $(KERNEL) $(IMAGE) $(BENCH_DIR)/ours '$(BENCH_RUN)' > /dev/null || \
		{ echo "bench: guest failed, logs: $(BENCH_DIR)/ours"; exit 1; }
ifeq ($(STOCK),1)
	@initramfs/run-qemu.sh -t 1800 -k "mmiotrace.filter_offset=$$(initramfs/edu-bar0.sh $(BENCH_DIR)/ours)" \
		$(STOCK_KERNEL) $(STOCK_IMAGE) $(BENCH_DIR)/stock '$(BENCH_RUN)' > /dev/null || \
		{ echo "bench: stock guest failed, logs: $(BENCH_DIR)/stock"; exit 1; }
	@echo "bench: ioremap()+iounmap() in $(BENCH_PAIRS) short boots of each kernel, in turn"
	@for i in $$(seq 1 $(BENCH_PAIRS)); do \
		initramfs/run-qemu.sh -t 600 $(KERNEL) $(IMAGE) $(BENCH_DIR)/pairs/ours$$i \
			'$(BENCH_REMAP)' > /dev/null && \
		initramfs/run-qemu.sh -t 600 $(STOCK_KERNEL) $(STOCK_IMAGE) $(BENCH_DIR)/pairs/stock$$i \
			'$(BENCH_REMAP)' > /dev/null || \
		{ echo "bench: a short boot failed, logs: $(BENCH_DIR)/pairs"; exit 1; }; \
	done
endif
	@bench/report.py $(BENCH_DIR) $(BENCH_DIR)/ours/output.log \
		$(if $(filter 1,$(STOCK)),$(BENCH_DIR)/stock/output.log)
ifeq ($(PRODUCTION)$(SANITIZE),00)
	@echo "bench: the same on the production kernel (PRODUCTION=1)"
	@$(MAKE) --no-print-directory bench PRODUCTION=1
	@{ echo "# mmiotrace benchmark: the production kernel"; sed 1d $(BUILD)/bench-prod/results.md; \
		echo; echo "# mmiotrace benchmark: the debug kernel (make check's)"; \
		sed 1d $(BENCH_DIR)/results.md; } > $(BENCH_DIR)/both.md
	@echo "bench: $(BENCH_DIR)/both.md (production, then debug), results.png"
	@$(MAKE) --no-print-directory bench-decode
else
	@echo "bench: $(BENCH_DIR)/results.md, $(BENCH_DIR)/results.png"
endif

# On the host: mmioctl decode and stat against awk on a generated trace of
# BENCH_LINES lines (build/bench/decode.md).
BENCH_LINES ?= 10000000
bench-decode: $(HOST_MMIOCTL)
	@mkdir -p $(BUILD)/bench
	@bench/decode.sh $(HOST_MMIOCTL) ctl-tool/maps $(BUILD)/bench $(BENCH_LINES)

# The unpatched kernel, same configuration, in a worktree of its own.
$(STOCK_KERNEL): $(KOBJ)/.config
	@[ -d $(STOCK_DIR)/src ] || git -C $(SRC) worktree add -q --detach $(abspath $(STOCK_DIR))/src pristine
	@mkdir -p $(STOCK_DIR)/obj
	@cp $(KOBJ)/.config $(STOCK_DIR)/obj/.config
	@echo "kernel: building stock 6.12 (log: $(STOCK_DIR)/build.log)"
	@$(MAKE) -s -C $(STOCK_DIR)/src O=$(abspath $(STOCK_DIR))/obj olddefconfig all -j$(JOBS) \
		> $(STOCK_DIR)/build.log 2>&1 || { tail -n 30 $(STOCK_DIR)/build.log; exit 1; }
	@touch $@

$(STOCK_IMAGE): $(STOCK_KERNEL) $(GUEST_FILES) $(MODULE_SRCS) $(TOOLS) $(MMIOCTL)
	@mkdir -p $(STOCK_DIR)/module
	@cp $(MODULE_SRCS) $(STOCK_DIR)/module/
	@$(MAKE) -s -C $(STOCK_DIR)/obj M=$(abspath $(STOCK_DIR))/module modules \
		> $(STOCK_DIR)/module/build.log 2>&1 || { cat $(STOCK_DIR)/module/build.log; exit 1; }
	@initramfs/build.sh $(abspath $@) $(abspath $(STOCK_DIR))/guest-root \
		$(abspath $(STOCK_DIR))/module/mmiotouch.ko $(abspath $(TOOLS)) $(abspath $(MMIOCTL))

# arm64 (issue 39, docs/arm64-plan.md): the same tree cross-built for
# qemu-system-aarch64 -M virt, with the tracer and the KUnit tests of its
# A64 emulation; arm64-boot checks that the guest comes up on every CPU
# with the test devices. The fragments are fixed, not read off the tree:
# make parses this file before it extracts the tree.
ARM64_OBJ       := $(BUILD)/kobj-arm64
ARM64_KERNEL    := $(ARM64_OBJ)/arch/arm64/boot/Image
ARM64_CROSS     := ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
ARM64_FRAGMENTS := kconfig/arm64/base.config kconfig/debug.config kconfig/kcov.config \
	kconfig/arm64/devices.config kconfig/mmiotrace.config kconfig/arm64/kunit.config \
	kconfig/arm64/blocks.config
ARM64_PACKAGES  := gcc-aarch64-linux-gnu qemu-system-arm

$(ARM64_OBJ)/.config: $(SRC)/.applied $(ARM64_FRAGMENTS) kconfig/merge.sh
	@$(MAKE) -s deps PACKAGES="$(ARM64_PACKAGES)"
	@mkdir -p $(ARM64_OBJ)
	@env $(ARM64_CROSS) kconfig/merge.sh $(SRC) $(ARM64_OBJ) $(ARM64_FRAGMENTS)
	@touch $@

$(ARM64_KERNEL): $(ARM64_OBJ)/.config $(SRC)/.applied
	@echo "kernel: building arm64 (log: $(ARM64_OBJ)/build.log)"
	@$(MAKE) -s -C $(SRC) O=$(abspath $(ARM64_OBJ)) $(ARM64_CROSS) -j$(JOBS) Image modules \
		> $(ARM64_OBJ)/build.log 2>&1 || \
		{ tail -n 30 $(ARM64_OBJ)/build.log; echo "kernel: arm64 build failed"; exit 1; }
	@touch $@

arm64-kernel: $(ARM64_KERNEL)

arm64-boot: $(ARM64_KERNEL)
	@initramfs/arm64-boot.sh $(ARM64_KERNEL) $(BUILD)/arm64-boot

# The arm64 guest image: busybox, bash and trace-cmd (with its libraries)
# from Debian's arm64 packages (initramfs/arm64-debs.sh: downloaded and
# unpacked, never installed), the test modules built against the arm64
# tree, mmioctl and the portable tools cross-built static (barmap, pio and
# tfloop are x86's: user mappings, port I/O, the trap flag), nvme.ko.
ARM64_DEBS       := $(BUILD)/arm64-debs
ARM64_PACKAGE_LIST := busybox-static bash-static trace-cmd libtraceevent1 libtracefs1 libzstd1 libc6
ARM64_MODULE_DIR := $(BUILD)/arm64-module
ARM64_MODULE     := $(ARM64_MODULE_DIR)/mmiotouch.ko
ARM64_MODROOT    := $(ARM64_OBJ)/modroot
X86_TOOLS        := barmap pio tfloop
ARM64_TOOLS      := $(patsubst bats/tools/%.c,$(BUILD)/arm64-tools/%, \
	$(filter-out $(X86_TOOLS:%=bats/tools/%.c),$(wildcard bats/tools/*.c)))
ARM64_MMIOCTL    := $(BUILD)/arm64-ctl-tool/static/mmioctl
ARM64_IMAGE      := $(BUILD)/arm64-guest.cpio.gz

$(ARM64_DEBS)/.unpacked: initramfs/arm64-debs.sh
	@initramfs/arm64-debs.sh $(ARM64_DEBS) $(ARM64_PACKAGE_LIST)
	@touch $@

$(ARM64_MODROOT)/.installed: $(ARM64_KERNEL)
	@rm -rf $(ARM64_MODROOT)
	@$(MAKE) -s -C $(SRC) O=$(abspath $(ARM64_OBJ)) $(ARM64_CROSS) INSTALL_MOD_PATH=$(abspath $(ARM64_MODROOT)) \
		INSTALL_MOD_STRIP=1 modules_install > $(ARM64_OBJ)/modules_install.log 2>&1 || \
		{ cat $(ARM64_OBJ)/modules_install.log; exit 1; }
	@touch $@

$(ARM64_MODULE): $(MODULE_SRCS) $(ARM64_KERNEL) | $(ARM64_MODROOT)/.installed
	@mkdir -p $(ARM64_MODULE_DIR)
	@cp $(MODULE_SRCS) $(ARM64_MODULE_DIR)/
	@$(MAKE) -s -C $(ARM64_OBJ) $(ARM64_CROSS) M=$(abspath $(ARM64_MODULE_DIR)) modules \
		> $(ARM64_MODULE_DIR)/build.log 2>&1 || { cat $(ARM64_MODULE_DIR)/build.log; exit 1; }

$(BUILD)/arm64-tools/%: bats/tools/%.c | deps
	@$(MAKE) -s deps PACKAGES="$(ARM64_PACKAGES)"
	@mkdir -p $(@D)
	@aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror -o $@ $<

$(ARM64_MMIOCTL): $(CTL_SOURCES) | deps
	@$(MAKE) -s deps PACKAGES="$(ARM64_PACKAGES)"
	@$(MAKE) -s -C ctl-tool O=$(abspath $(BUILD))/arm64-ctl-tool CC=aarch64-linux-gnu-gcc $(abspath $@)

$(ARM64_IMAGE): $(GUEST_FILES) $(ARM64_DEBS)/.unpacked $(ARM64_MODULE) $(ARM64_MODROOT)/.installed \
		$(ARM64_TOOLS) $(ARM64_MMIOCTL)
	@ARCH_ROOT=$(ARM64_DEBS)/root initramfs/build.sh $(abspath $@) $(abspath $(BUILD))/arm64-guest-root \
		$(abspath $(ARM64_MODULE)) $(abspath $(ARM64_MODULE_DIR))/fuzztarget.ko $(abspath $(ARM64_MODROOT)) \
		$(abspath $(ARM64_TOOLS)) $(abspath $(ARM64_MMIOCTL))
arm64-image: $(ARM64_IMAGE)

# make check-arm64: make check's guest tests on arm64, the boots whose
# data files say ARCH=arm64 (each on -M virt at EL1 and at EL2 with VHE),
# run in parallel the same way into build/check-arm64, judged the same way
# (verdict.sh, splats.ere, oracle.py), ending with "N passed, N failed".
# BOOTS, BATS, TESTS, RERUN narrow or force it as for make check.
ARM64_BOOT_DEPS := $(ARM64_KERNEL) $(ARM64_MODULE) $(ARM64_MODROOT)/.installed $(ARM64_TOOLS) $(ARM64_MMIOCTL) \
	initramfs/init initramfs/build.sh initramfs/pci.sh initramfs/run-qemu.sh \
	bats/helpers.bash bats/splats.ere bats/harness/boot.sh \
	bats/harness/part.sh bats/harness/verdict.sh bats/harness/oracle.py
check-arm64: $(HOST_MMIOCTL)
	@$(MAKE) -s deps PACKAGES="$(ARM64_PACKAGES)"
	$(call check_run,quick,arm64,$(ARM64_CHECK_DIR))

$(ARM64_CHECK_DIR)/pci.env: $(ARM64_KERNEL) initramfs/run-qemu.sh initramfs/pci.sh | $(ARM64_IMAGE)
	$(call pci_probe,$(ARM64_KERNEL),$(ARM64_IMAGE),$(ARM64_CHECK_DIR),-A arm64,0x10d3)

$(ARM64_CHECK_DIR)/selection/%: FORCE
	@mkdir -p $(@D)
	@sel=$$(CHECK_BATS='$(BATS)' CHECK_TESTS='$(TESTS)' bats/harness/boots.sh selection $*) && \
		{ [ "$$sel" = "$$(cat $@ 2>/dev/null)" ] || echo "$$sel" > $@; }

$(patsubst %,$(ARM64_CHECK_DIR)/%.ok,$(ARM64_BOOT_NAMES)): $(ARM64_CHECK_DIR)/%.ok: bats/boots/%.boot \
		$(ARM64_CHECK_DIR)/selection/% $(ARM64_BOOT_DEPS) | $(ARM64_IMAGE)
	@CHECK_BATS='$(BATS)' CHECK_TESTS='$(TESTS)' HOST_MMIOCTL=$(abspath $(HOST_MMIOCTL)) \
		bats/harness/part.sh $(ARM64_CHECK_DIR) $* bats/harness/boot.sh \
		$(ARM64_KERNEL) $(ARM64_IMAGE) $(ARM64_CHECK_DIR) $*

# Build the kernel after every patch of the series, in a tree of its own
# (FROM=N: from patch N on).
series-check: $(SRC)/.applied $(KOBJ)/.config
	@patches/series-check.sh $(abspath $(SRC)) $(BUILD)/series $(abspath $(KOBJ))/.config

clean:
	rm -rf $(BUILD)

help:
	@echo "make demo            boot the guest, trace the edu device, print the trace"
	@echo "make shell           the guest with a shell here (DEVICES, CPUS, KARGS; CMD='...': one command)"
	@echo "make deb [KCONFIG=/boot/config-\$$(uname -r)]  kernel and mmioctl packages in build/deb"
	@echo "make check-deb       build the default packages, install mmioctl in a scratch root, boot the kernel's"
	@echo "make check           host tests, checkpatch, guest tests; ends 'N passed, N failed'"
	@echo "make check-quick     the same without the slow tier (bats/boots/slow.boot)"
	@echo "  BOOTS='guest capture' BATS='ranges.bats ...' TESTS=REGEX RERUN=1 CHECK_JOBS=N  narrow or force it"
	@echo "make stress          check plus fuzzing and timed stress (SANITIZE=1 too)"
	@echo "  SANITIZE=kcsan: all of it on the KCSAN kernel; STRESS_SANITIZE='kasan kcsan' both after"
	@echo "make fuzz DRIVER=e1000 [TIME=10m]  fuzz a driver's probe with mmioctl fuzz (KASAN, kcov kernel)"
	@echo "make bench [STOCK=1] timings in the guest, optionally against stock 6.12"
	@echo "make bench-decode    mmioctl decode/stat against awk on a generated trace"
	@echo "make kernel | image  the patched guest kernel, the guest initramfs"
	@echo "make refresh-patches write patches/ from the commits in build/linux"
	@echo "make series-check    build the kernel after each patch of the series"
	@echo "make arm64-boot      cross-build the tree for arm64 and boot it on QEMU virt"
	@echo "make check-arm64     the guest tests on arm64 (QEMU virt at EL1 and EL2); ends 'N passed, N failed'"
	@echo "make check SANITIZE=1  the same on a KASAN/UBSAN kernel (SANITIZE=kcsan: KCSAN)"
	@echo "make clean           remove build/ (the extracted tree included)"
