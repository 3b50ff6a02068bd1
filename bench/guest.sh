#!/bin/bash
# Guest side of "make bench": time MMIO accesses, the floor of a traced one
# (a bare page fault), enabling and disabling, range rewrites, arming at
# scale, ioremap()+iounmap() and event loss, and print one result line each:
#   RESULT <name> <integer> (one line per repetition)
# Names ending in _ns are ns per operation, _us microseconds; others say
# in report.py what they count. attr.* lines attribute a time to what the
# kernel did meanwhile (function_graph in an instance of its own).
# usage: guest.sh COUNT REPEATS
# On a kernel without the runtime controls (STOCK=1), only the setups that
# stock mmiotrace can express are measured; it must be booted with
# mmiotrace.filter_offset=<edu BAR0> so that the VGA mapping is untraced.
set -eu
count=$1 repeats=$2
tracing=/sys/kernel/tracing
ctl=/sys/kernel/debug/mmiotrace
touch=/sys/kernel/debug/mmiotouch
# The instance whose events the event scenarios enable, and one whose
# record-cmd option is off (see cycle).
inst=$tracing/instances/bench
nocmd=$tracing/instances/nocmd
[ -d "$touch" ] || insmod /opt/mmio/modules/mmiotouch.ko

. /opt/mmio/pci.sh
edu=$(edu_bar0)
vga=$(vga_bar0)
ivshmem=$(ivshmem_bar2)
printf 'RESULT edu_bar0 %d\n' "$edu"
runtime=0
[ -d "$ctl" ] && runtime=1
# Kept across the scenarios: the buffer size the guest booted with.
buffer_kb=$(sed -E 's/.*expanded: ([0-9]+).*/\1/' "$tracing/buffer_size_kb")

hex() { printf '0x%x' "$(($1))"; }
touch_dev() { echo "$*" > "$touch/ctl"; }
elapsed() { cat "$touch/elapsed_ns"; }

# measure1 NAME ACCESS...: ns per access over COUNT accesses.
measure1() {
	local name=$1
	shift
	touch_dev "repeat $count $*"
	echo "RESULT $name $(( $(elapsed) / count ))"
}

# user_faults off|traced: ns per page fault of a process touching fresh
# anonymous pages (COUNT/4), and reading a page-cache file (COUNT/16
# faults, each mapping 16 pages: faultbench.c), on CPU 0. While tracing,
# another process holds a traced mapping of edu's BAR meanwhile: kmmio
# then looks at every user fault.
user_faults() {
	local pages=$((count / 4 + 1)) holder=""
	if [ "$1" = traced ] && [ "$runtime" = 1 ]; then
		barmap "$(pci_dev 0x1234 0x11e8)/resource0" 0 0x1000 r4 0 wait > /tmp/holder.out &
		holder=$!
		# A holder that died (no mapping) would hang the loop for good.
		until grep -q '^ready' /tmp/holder.out; do
			kill -0 "$holder" 2>/dev/null || { echo "bench: barmap holder failed" >&2; return 1; }
			sleep 0.1
		done
	fi
	taskset -c 0 faultbench anon "$pages" | awk -v name="user_anon_fault_$1_ns" '{ print "RESULT", name, $3 }'
	taskset -c 0 faultbench file /tmp/faultbench "$((count / 16 + 1))" |
		awk -v name="user_file_fault_$1_ns" '{ print "RESULT", name, $3 }'
	if [ -n "$holder" ]; then
		kill -USR1 "$holder"
		wait "$holder" || true
	fi
}

# measure_user NAME: ns per read of edu's BAR0 by a process that maps it
# through sysfs (barmap, on CPU 0), over COUNT reads; the process's start
# is not timed.
measure_user() {
	local res0
	res0=$(pci_dev 0x1234 0x11e8)/resource0
	taskset -c 0 barmap "$res0" 0 0x1000 spin 0x0 "$count" |
		awk -v name="$1" '$1 == "spin" { printf "RESULT %s %d\n", name, $3 / $2 }'
}

# floor NAME: ns per page fault that only its exception fixup ends.
floor() {
	touch_dev "fault $count"
	echo "RESULT $1 $(( $(elapsed) / count ))"
}

# timed NAME COMMAND...: wall time of a shell function or builtin, in
# microseconds (no fork: bash's clock, read twice).
timed() {
	local name=$1 start end
	shift
	start=$EPOCHREALTIME
	"$@"
	end=$EPOCHREALTIME
	echo "RESULT $name $(( ${end/./} - ${start/./} ))"
}

set_ranges() { printf '%s\n' "$1" > "$ctl/ranges"; }
clear_ranges() { : > "$ctl/ranges"; }
tracer_on() { echo mmiotrace > "$tracing/current_tracer"; }
tracer_off() { echo nop > "$tracing/current_tracer"; }
events_on() { echo 1 > "$inst/events/mmiotrace/enable"; }
events_off() { echo 0 > "$inst/events/mmiotrace/enable"; }
stat_of() { awk -v key="$1" '$1 == key { print $2 }' "$ctl/stats"; }
# lost: events the tracer's buffer dropped this session (stock has no
# counter: 0).
lost() { stat_of lost 2>/dev/null || echo 0; }
# instance_stat DIR KEY: a per-CPU buffer statistic of a trace array,
# summed over the CPUs ("overrun", "dropped events", "entries").
instance_stat() {
	cat "$1"/per_cpu/cpu*/stats | awk -v key="$2:" '
		index($0, key) == 1 { sum += $NF } END { print sum + 0 }'
}
unmap_all() {
	local target
	for target in edu vga ivshmem; do
		touch_dev "unmap $target" 2>/dev/null || true
	done
}

# quiesce: no consumer, no filter, an empty set.
quiesce() {
	tracer_off
	[ "$runtime" = 1 ] || return 0
	events_off
	echo 0 > "$inst/events/mmiotrace/mmio_read/filter"
	echo 0 > "$inst/events/mmiotrace/mmio_write/filter"
	clear_ranges
	: > "$ctl/ports"
}

# The window of ivshmem's BAR that the range-count scenarios map: 8 MiB of
# 4k leaves (4k into the BAR, so no 2M page), 2048 pages. RANGES_AT is
# the register read, in the middle of the 1024 ranges.
RANGES_WINDOW=0x800000
RANGES_AT=0x400000
if [ "$runtime" = 1 ]; then
	mkdir -p "$inst"
	# An instance takes record-cmd from the top level when it is made.
	echo 0 > "$tracing/options/record-cmd"
	mkdir -p "$nocmd"
	echo 1 > "$tracing/options/record-cmd"
	# 1024 4-byte ranges, 8 KiB apart, each on a page of its own.
	for i in $(seq 0 1023); do
		printf '0x%x 4\n' $((ivshmem + 0x1000 + i * 0x2000))
	done > /tmp/ranges.1024
	printf '0x%x 4\n' $((ivshmem + 0x1000 + RANGES_AT)) > /tmp/ranges.1
fi

# setup_for SCENARIO: the consumers, range set and mappings of a scenario.
setup_for() {
	quiesce
	case $1 in
	off) ;;
	traced)
		[ "$runtime" = 1 ] && set_ranges "$edu 1M"
		tracer_on ;;
	subpage)
		set_ranges "$(hex edu+0x800) 16"
		tracer_on ;;
	range4)
		printf '%s 4\n0x%x 4\n' "$edu" $((vga + 0x100000)) > "$ctl/ranges"
		tracer_on ;;
	events)
		set_ranges "$edu 1M"
		events_on ;;
	filtered)
		# A filter that no access passes: the event is built, then dropped.
		set_ranges "$edu 1M"
		echo "phys == 0" > "$inst/events/mmiotrace/mmio_read/filter"
		echo "phys == 0" > "$inst/events/mmiotrace/mmio_write/filter"
		events_on ;;
	ranges*)
		cat "/tmp/ranges.${1#ranges}" > "$ctl/ranges"
		tracer_on ;;
	ports)
		# The CMOS clock's ports traced; fw_cfg's data port not.
		set_ranges "$edu 1M"
		echo "0x70 2" > "$ctl/ports"
		tracer_on ;;
	esac
	case $1 in
	range4)
		# The whole 16M VGA BAR: ioremap() maps it with 2M pages.
		touch_dev "map edu"; touch_dev "map vga 0 0x1000000" ;;
	ranges*) touch_dev "map ivshmem 0x1000 $RANGES_WINDOW" ;;
	*) touch_dev "map edu"; touch_dev "map vga" ;;
	esac
}

# One round measures every scenario once, so that drift in the emulator's
# speed spreads over all of them instead of favouring some.
scenarios="off traced"
[ "$runtime" = 1 ] && scenarios="$scenarios subpage range4 events filtered ranges1 ranges1024 ports"
for round in $(seq 1 "$repeats"); do
	for scenario in $scenarios; do
		setup_for "$scenario"
		case $scenario in
		off)
			measure1 off_read read edu 4 0x0
			measure1 off_write write edu 4 0x4 0x1
			measure1 off_vga_read read vga 4 0x0
			measure1 port_off_read pio in 1 0x71
			measure1 port_other_off_read pio in 1 0x511
			measure_user user_off_read
			user_faults off
			floor fault_off_ns ;;
		traced)
			# edu in the set (stock: filter_offset is the edu BAR);
			# the VGA mapping outside it, never armed.
			measure1 traced_read read edu 4 0x0
			measure1 traced_write write edu 4 0x4 0x1
			measure1 outside_vga_read read vga 4 0x0
			# A process's reads of the same register (stock
			# traces no process: its figure is untraced).
			measure_user user_traced_read
			user_faults traced
			# The same fault with kmmio looking at every fault.
			floor fault_traced_ns
			if [ "$round" = 1 ]; then
				echo "RESULT cpus_online_tracing $(nproc)"
				present=$(cut -d- -f2 /sys/devices/system/cpu/present)
				echo "RESULT cpus $((present + 1))"
			fi ;;
		subpage)
			# Armed page, access outside a 16-byte range.
			measure1 subpage_outside_read read edu 4 0x0 ;;
		range4)
			# A 4-byte range in a 4K page (edu) and in a 2M page
			# (VGA): the bytes in it, and bytes of the same
			# armed page outside it.
			measure1 range4_4k_traced_read read edu 4 0x0
			measure1 range4_4k_untraced_read read edu 4 0x8
			measure1 range4_pmd_traced_read read vga 4 0x100000
			measure1 range4_pmd_untraced_read read vga 4 0x100010 ;;
		events)
			measure1 events_read read edu 4 0x0
			measure1 events_write write edu 4 0x4 0x1 ;;
		filtered)
			measure1 filtered_read read edu 4 0x0
			measure1 filtered_write write edu 4 0x4 0x1 ;;
		ports)
			# A traced port read, one outside the port set.
			measure1 port_traced_read pio in 1 0x71
			measure1 port_outside_read pio in 1 0x511 ;;
		ranges*)
			[ "$round" = 1 ] && echo "RESULT ${scenario}_armed_leaves $(stat_of armed_leaves)"
			measure1 "${scenario}_read" read ivshmem 4 "$RANGES_AT" ;;
		esac
		unmap_all
	done
done
quiesce

# Enabling and disabling, each after a pause: a tracepoint enabled again
# within a grace period of its disabling waits for the rest of it.
settle() { sleep 0.2; }
# cycle KIND LIVE [HOOK]: enable then disable the tracer (KIND tracer) or
# the events of an instance (events; eventsnocmd: of an instance whose
# record-cmd option is off, so that enabling them does not register the
# probes that record command names on sched_switch and sched_wakeup), with
# an empty set (LIVE 0) or with a range on a live mapping (1). HOOK NAME
# COMMAND runs each, default timed.
eventsnocmd_on() { echo 1 > "$nocmd/events/mmiotrace/enable"; }
eventsnocmd_off() { echo 0 > "$nocmd/events/mmiotrace/enable"; }
cycle() {
	local kind=$1 live=$2 hook=${3:-timed} name
	case $kind in
	tracer) name= ;;
	events) name=events_ ;;
	eventsnocmd) name=events_nocmd_ ;;
	esac
	quiesce
	if [ "$live" = 1 ]; then
		set_ranges "$edu 4k"
		touch_dev "map edu"
	fi
	settle
	"$hook" "${name}enable$( [ "$live" = 1 ] && echo _live)_us" "${kind}_on"
	settle
	"$hook" "${name}disable$( [ "$live" = 1 ] && echo _live)_us" "${kind}_off"
	unmap_all
}
# The first enable also allocates the tracer's buffer: not counted.
tracer_on
tracer_off
variants="tracer:0"
[ "$runtime" = 1 ] && variants="tracer:0 tracer:1 events:0 events:1"
for i in $(seq 1 "$repeats"); do
	for v in $variants $( [ "$runtime" = 1 ] && echo eventsnocmd:0); do
		cycle "${v%:*}" "${v#*:}"
	done
done

if [ "$runtime" = 1 ]; then
	# Port tracing switched on and off while the tracer runs: the port
	# set written (a breakpoint registered on every CPU) and emptied.
	ports_on() { echo "0x70 2" > "$ctl/ports"; }
	ports_off() { : > "$ctl/ports"; }
	quiesce
	tracer_on
	for i in $(seq 1 "$repeats"); do
		settle
		timed port_enable_us ports_on
		settle
		timed port_disable_us ports_off
	done
	quiesce
fi

if [ "$runtime" = 1 ]; then
	# An unchanged rewrite of the set while tracing a live mapping: no
	# leaf changes, so no grace period. rewrite (bats/tools) times the
	# open, write and close that "echo ... > ranges" makes, without the
	# shell; the same of a file in tmpfs shows what any file costs.
	quiesce
	set_ranges "$edu 4k"
	tracer_on
	touch_dev "map edu"
	: > /tmp/ranges.same
	for i in $(seq 1 "$repeats"); do
		echo "RESULT rewrite_same_ns $(rewrite 21 "$ctl/ranges" "$edu 4k")"
		echo "RESULT rewrite_tmpfs_ns $(rewrite 21 /tmp/ranges.same "$edu 4k")"
	done
	[ "$(cat "$ctl/ranges")" = "$edu 0x1000" ] || echo "bench: the rewrite changed the set" >&2
	unmap_all
	quiesce
fi

# ioremap() + iounmap() of 4K of the VGA BAR: tracer off (ours: only an
# SRCU read section), and on with the VGA outside what is traced. Each
# round also takes the floor, whose code is the same in both kernels: the
# ratio of the two, kernel against kernel, leaves out how fast the
# emulator ran each boot.
for i in $(seq 1 "$repeats"); do
	touch_dev "remap $count vga"
	echo "RESULT remap_off_ns $(( $(elapsed) / count ))"
	floor remap_floor_ns
	setup_for traced
	unmap_all
	touch_dev "remap $count vga"
	echo "RESULT remap_outside_ns $(( $(elapsed) / count ))"
	quiesce
done

if [ "$runtime" = 1 ]; then
	# Arming at scale: windows of ivshmem's BAR mapped with 4k leaves (4k
	# into the BAR), armed by a range set written while tracing and
	# disarmed by emptying it; 4k, one leaf, is the fixed cost.
	# page_level VIRT: the level of the leaf that maps VIRT, as the
	# page-table dump names it ("pte" for a 4k leaf).
	page_level() {
		awk -v va="$(printf '0x%016x' "$1")" '
			$1 ~ /^0x/ {
				split($1, span, "-")
				if (span[1] "" <= va "" && va "" < span[2] "") { print $NF; exit }
			}' /sys/kernel/debug/page_tables/kernel
	}
	scale_rounds=$(( repeats < 5 ? repeats : 5 ))
	for i in $(seq 1 "$scale_rounds"); do
		for size in 4k:0x1000 16m:0x1000000 64m:0x4000000 256m:0x10000000; do
			name=${size%:*} bytes=${size#*:}
			quiesce
			touch_dev "map ivshmem 0x1000 $bytes"
			# A kernel without the page-table dump (the production
			# one, as Debian's) says nothing of the leaves' level.
			if [ "$i" = 1 ] && [ -r /sys/kernel/debug/page_tables/kernel ]; then
				virt=$(awk '$1 == "ivshmem" { print $2 }' "$touch/mapped")
				pte=0
				[ "$(page_level "$virt")" = pte ] &&
					[ "$(page_level $((virt + bytes - 0x1000)))" = pte ] && pte=1
				echo "RESULT scale_${name}_pte $pte"
			fi
			tracer_on
			timed "arm_${name}_us" set_ranges "$(hex ivshmem+0x1000) $bytes"
			echo "RESULT scale_${name}_leaves $(stat_of armed_leaves)"
			timed "disarm_${name}_us" clear_ranges
			tracer_off
			unmap_all
		done
	done
	quiesce
fi

# Where the time goes, from the function graph of this shell
# (set_ftrace_pid), in an instance of its own so that the tracer and the
# events keep theirs; a trace_marker line starts each record.
# ATTR_ONE_CPU=1 (bats/bench.bats) takes the other CPUs offline meanwhile:
# every start of the graph patches the sched_switch call in __schedule(),
# and QEMU's multi-threaded TCG has been seen to run a stale int3 there on
# another CPU after the patch was done (an "Oops: int3").
attr_cpus() {
	local cpu
	[ "${ATTR_ONE_CPU:-0}" = 1 ] || return 0
	for cpu in /sys/devices/system/cpu/cpu[1-9]*; do
		echo "$1" > "$cpu/online"
	done
}
attr_cpus 0
attr=$tracing/instances/attr
mkdir -p "$attr"
echo $$ > "$attr/set_ftrace_pid"
echo 1 > "$attr/options/funcgraph-tail"
# attr_graph_on FUNCTION...: the graph of those of these functions that
# the kernel has. An empty filter traces every function: the graph stays
# off then, and the filter changes only while it is off.
attr_graph_on() {
	local f
	echo nop > "$attr/current_tracer"
	: > "$attr/set_ftrace_filter"
	for f in "$@"; do
		echo "$f" >> "$attr/set_ftrace_filter" 2>/dev/null || true
	done
	# An empty filter reads "#### all functions enabled ####".
	grep -qv '^#' "$attr/set_ftrace_filter" || return 1
	echo function_graph > "$attr/current_tracer"
}
# Per call: one function traced at a time, its median duration over
# the calls that a few hundred operations make (attr.access.GROUP.FUNCTION,
# ns) and its calls per operation (attr.calls.GROUP.FUNCTION, in
# hundredths). Each call includes what the graph adds to it:
# mmio_ranges_meet, a one-range lookup, shows about how much.
# graph_stats FUNCTION: the median duration of its calls since the
# last marker, in ns, and how many there were.
graph_stats() {
	awk -v fn="$1" '
		/ATTR BEGIN/ { n = 0; next }
		index($0, " " fn "();") && match($0, /[0-9]+\.[0-9]+ us/) {
			d[++n] = substr($0, RSTART, RLENGTH - 3) * 1000
		}
		END {
			if (!n) { print 0, 0; exit }
			# Insertion sort: a few hundred values.
			for (i = 2; i <= n; i++) {
				v = d[i]
				for (j = i - 1; j >= 1 && d[j] > v; j--) d[j + 1] = d[j]
				d[j + 1] = v
			}
			printf "%d %d\n", d[int((n + 1) / 2)], n
		}' "$attr/trace"
}
# per_call GROUP OPERATIONS "FUNCTION..." COMMAND...: each function
# while COMMAND makes OPERATIONS operations.
per_call() {
	local group=$1 n=$2 fns=$3 fn median calls
	shift 3
	for fn in $fns; do
		attr_graph_on "$fn" || continue
		echo "ATTR BEGIN $group $fn" > "$attr/trace_marker"
		"$@"
		read -r median calls <<< "$(graph_stats "$fn")"
		echo "RESULT attr.access.$group.$fn $median"
		echo "RESULT attr.calls.$group.$fn $(( calls * 100 / n ))"
	done
}
samples=$(( count < 500 ? count : 500 ))
remaps=$(( count < 50 ? count : 50 ))
if [ "$runtime" = 1 ]; then
	# Enabling, disabling and a rewrite: only the functions that wait or
	# patch code, and those that give them their context. attr_graph
	# turns the graph into attr.VARIANT.CATEGORY lines (us): each
	# function's time less that of the traced functions it called, summed
	# by category; attr.VARIANT.wall is the whole write as timed here,
	# attr.VARIANT.edit_ranges the time in mmio_edit_ranges(). The
	# grace periods outside any function of ours are the tracing core's
	# (tracer_init() resetting the buffer); those inside
	# disable_mmiotrace() are tracepoint_synchronize_unregister()'s.
	attr_graph() {
		awk -v variant="$1" -v wall="$2" '
		function category(name, ctx) {
			if (name == "synchronize_rcu" || name == "synchronize_srcu")
				return ctx ~ / disable_mmiotrace/ ? "probe_sync" : \
				       ctx ~ / mmio_/ ? "other_gp" : "buffer_reset"
			if (name == "synchronize_srcu_expedited") return "srcu_start"
			# disable_mmiotrace() waits for its probes; kmmio, in
			# mmio_events_unreg() below it, for the disarmed pages.
			if (name == "synchronize_rcu_expedited")
				return ctx ~ / disable_mmiotrace/ && ctx !~ / mmio_events_unreg/ ? \
				       "probe_sync" : "disarm_gp"
			if (name == "cond_synchronize_rcu") return "tp_reuse_gp"
			if (name == "text_poke_bp_batch") return "patching"
			if (name == "apply_settings") return "walk"
			if (name == "kmmio_arm") return "arm"
			if (name == "kmmio_disarm") return "disarm"
			return ""
		}
		function context(d,   s, i) {
			s = ""
			for (i = 1; i <= d; i++) s = s " " frame[i]
			return s
		}
		# A call of NAME at depth+1 ended after DUR us; CALLEES is the
		# time of the traced functions it called (and so on down).
		function ended(name, dur, callees,   cat) {
			if (name == "mmio_edit_ranges") edit += dur
			cat = category(name, context(depth))
			if (cat == "") {
				below[depth] += callees
				return
			}
			total[cat] += dur - callees
			below[depth] += dur
		}
		/ATTR BEGIN/ { split("", total); split("", below); depth = 0; edit = 0; next }
		index($0, "|") == 0 { next }
		{
			left = substr($0, 1, index($0, "|") - 1)
			right = substr($0, index($0, "|") + 1)
			gsub(/^ +| +$/, "", right)
			dur = -1
			if (match(left, /[0-9]+\.[0-9]+ us/))
				dur = substr(left, RSTART, RLENGTH - 3) + 0
			name = right
			sub(/\(.*/, "", name)
		}
		right ~ /\{$/ { frame[++depth] = name; below[depth] = 0; next }
		right ~ /^\}/ && depth > 0 {
			name = frame[depth]
			callees = below[depth]
			depth--
			ended(name, dur, callees)
			next
		}
		right ~ /\(\);$/ && dur >= 0 { ended(name, dur, 0) }
		END {
			n = split("buffer_reset probe_sync srcu_start patching walk arm disarm " \
				  "disarm_gp tp_reuse_gp other_gp", cats, " ")
			other = wall
			for (i = 1; i <= n; i++) {
				printf "RESULT attr.%s.%s %d\n", variant, cats[i], total[cats[i]]
				other -= total[cats[i]]
			}
			printf "RESULT attr.%s.other %d\n", variant, other
			printf "RESULT attr.%s.wall %d\n", variant, wall
			printf "RESULT attr.%s.edit_ranges %d\n", variant, edit
		}' "$attr/trace"
	}

	# attributed NAME COMMAND: like timed, with the graph of the command.
	attributed() {
		local variant=${1%_us} start end
		shift
		echo "ATTR BEGIN $variant" > "$attr/trace_marker"
		start=$EPOCHREALTIME
		"$@"
		end=$EPOCHREALTIME
		attr_graph "$variant" $(( ${end/./} - ${start/./} ))
	}

	attr_graph_on synchronize_rcu synchronize_srcu synchronize_srcu_expedited \
		synchronize_rcu_expedited cond_synchronize_rcu text_poke_bp_batch \
		apply_settings kmmio_arm kmmio_disarm untrace_all enable_mmiotrace \
		disable_mmiotrace mmio_events_reg mmio_events_unreg mmio_edit_ranges
	attr_rounds=$(( repeats < 5 ? repeats : 5 ))
	for i in $(seq 1 "$attr_rounds"); do
		for v in $variants; do
			cycle "${v%:*}" "${v#*:}" attributed
		done
		set_ranges "$edu 4k"
		tracer_on
		touch_dev "map edu"
		attributed rewrite_same_us set_ranges "$edu 4k"
		unmap_all
		quiesce
	done

	# A traced read: the handler, its lookups, the RCU-lockdep checks
	# (CONFIG_PROVE_RCU) of those lookups, decoding, emulation, the event.
	quiesce
	set_ranges "$edu 4k"
	tracer_on
	touch_dev "map edu"
	per_call read "$samples" "kmmio_handler get_kmmio_fault_page lookup_address \
		rcu_read_lock_held kmmio_decode insn_decode kmmio_emulate kmmio_alias_read mmio_access \
		probe_read mmio_ranges_meet" touch_dev "repeat $samples read edu 4 0x0"
	# The floor's fault while tracing: kmmio's look, then the rest.
	per_call fault "$samples" "kmmio_handler get_kmmio_fault_page do_kern_addr_fault" \
		touch_dev "fault $samples"
	# ioremap()+iounmap() while tracing, the mapping outside the set:
	# the hooks, and the allocations and RCU frees in them.
	unmap_all
	per_call remap_on "$remaps" "mmiotrace_ioremap_begin mmiotrace_ioremap_end \
		mmiotrace_iounmap_begin mmiotrace_iounmap_end kmem_cache_alloc_lru_noprof \
		call_rcu" touch_dev "remap $remaps vga"
	quiesce
fi

# ioremap()+iounmap() with nothing tracing, on either kernel: ioremap()
# and iounmap() whole, ours' hooks (an SRCU read section each) and stock's
# (mmiotrace_ioremap(), mmiotrace_iounmap()); a function that a kernel
# does not have is left out.
quiesce
per_call remap_off "$remaps" "ioremap iounmap mmiotrace_ioremap_begin mmiotrace_ioremap_end \
	mmiotrace_iounmap_begin mmiotrace_iounmap_end mmiotrace_ioremap mmiotrace_iounmap \
	kmem_cache_alloc_lru_noprof call_rcu" touch_dev "remap $remaps vga"
per_call floor "$samples" "do_kern_addr_fault" touch_dev "fault $samples"
echo nop > "$attr/current_tracer"
rmdir "$attr"
attr_cpus 1

# Traced reads from one CPU, then from two at once (stock takes the
# second CPU offline): events per second, and the events neither in the
# buffer nor counted as lost (should be 0).
# parallel_reads N CPU...: N reads of edu's id register on each CPU.
parallel_reads() {
	local n=$1 cpu start end events
	shift
	setup_for traced
	unmap_all
	touch_dev "map edu"
	start=$EPOCHREALTIME
	for cpu in "$@"; do
		taskset -c "$cpu" sh -c "echo 'repeat $n read edu 4 0x0' > $touch/ctl" &
	done
	wait
	end=$EPOCHREALTIME
	events=$((n * $#))
	echo "RESULT events_per_s_$#cpu $(( events * 1000000 / (${end/./} - ${start/./}) ))"
	echo "RESULT events_unaccounted_$#cpu $(( events - $(grep -c '^R ' "$tracing/trace") - $(lost) ))"
	unmap_all
	tracer_off
}
if [ "$runtime" = 1 ] && [ "$(nproc)" -ge 2 ]; then
	echo 8192 > "$tracing/buffer_size_kb"
	for i in $(seq 1 "$repeats"); do
		parallel_reads $((count * 4)) 0
		parallel_reads $((count * 2)) 0 1
	done
	echo "$buffer_kb" > "$tracing/buffer_size_kb"
fi

# Events per second until the ring buffer (default size, nobody reading)
# loses events: traced reads in chunks until "lost" counts some (at most
# 40 chunks; stock has no counter and always runs them all).
quiesce
tracer_on
touch_dev "map edu"
events=0 elapsed=0 chunk=$((count * 5))
for i in $(seq 1 40); do
	touch_dev "repeat $chunk read edu 4 0x0"
	events=$((events + chunk))
	elapsed=$((elapsed + $(elapsed)))
	[ "$runtime" = 1 ] && [ "$(lost)" -gt 0 ] && break
done
echo "RESULT events_per_s $(( events * 1000000000 / elapsed ))"
if [ "$runtime" = 1 ]; then
	echo "RESULT events_until_loss $events"
	echo "RESULT lost_events $(lost)"
fi
echo "RESULT buffer_size_kb $(cat "$tracing/buffer_size_kb")"
unmap_all
tracer_off

if [ "$runtime" = 1 ]; then
	# The tracer (default buffer) and an instance whose filter keeps 1
	# access in 100 (default buffer too), both on the same reads, nobody
	# reading either: 100 registers of a page of ivshmem read in turn,
	# a pass of 100 x COUNT/10 reads at a time, until the tracer has lost
	# events (at most 10 passes). What each lost, and what the instance
	# kept.
	quiesce
	loss=$tracing/instances/loss
	mkdir "$loss"
	kept=$((ivshmem + 0x1000))
	set_ranges "$(hex kept) 4k"
	echo "phys == $(hex kept)" > "$loss/events/mmiotrace/mmio_read/filter"
	echo 1 > "$loss/events/mmiotrace/mmio_read/enable"
	tracer_on
	touch_dev "map ivshmem 0x1000 0x1000"
	per=$(( count / 10 > 0 ? count / 10 : 1 ))
	accesses=0 start=$EPOCHREALTIME
	for pass in $(seq 1 10); do
		for reg in $(seq 0 4 396); do
			touch_dev "repeat $per read ivshmem 4 $reg"
		done
		accesses=$((accesses + 100 * per))
		[ "$(lost)" -gt 0 ] && break
	done
	end=$EPOCHREALTIME
	echo "RESULT loss_accesses $accesses"
	echo "RESULT loss_accesses_per_s $(( accesses * 1000000 / (${end/./} - ${start/./}) ))"
	echo "RESULT loss_tracer_lost $(lost)"
	overrun=$(instance_stat "$loss" overrun)
	dropped=$(instance_stat "$loss" "dropped events")
	echo "RESULT loss_instance_lost $((overrun + dropped))"
	echo "RESULT loss_instance_kept $(instance_stat "$loss" entries)"
	echo "RESULT loss_instance_buffer_kb $(cat "$loss/buffer_size_kb")"
	unmap_all
	tracer_off
	echo 0 > "$loss/events/mmiotrace/mmio_read/enable"
	echo 0 > "$loss/events/mmiotrace/mmio_read/filter"
	rmdir "$loss"
	quiesce
	rmdir "$inst" "$nocmd"
fi
