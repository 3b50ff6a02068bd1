#!/bin/bash
# make shell, used as a person would use it: one command with CMD= (its
# output, and a failing command's status), then the interactive shell
# through a pipe: the commands the banner says to type first, typed at the
# prompt, must record edu's accesses, and exit must power the guest off.
# usage: shell.sh MAKE OUTDIR    (prints ok/not ok lines; the Makefile's
# variables, SANITIZE among them, reach the inner make through MAKEFLAGS)
set -u
make=$1 outdir=$2
rm -rf "$outdir" && mkdir -p "$outdir"

# One command: its output, exactly; make fails with its status.
echo "check: make shell CMD=..." >&2
$make -s shell DEVICES=edu CPUS=1 \
	CMD='nproc; grep -l 0x1234 /sys/bus/pci/devices/*/vendor | wc -l; exit 3' \
	> "$outdir/cmd.out" 2> "$outdir/cmd.err"
status=$?
if [ "$(cat "$outdir/cmd.out")" = "$(printf '1\n1')" ]; then
	echo "ok - shell: make shell CMD= prints the command's output (CPUS=1, DEVICES=edu)"
else
	echo "not ok - shell: make shell CMD= printed '$(cat "$outdir/cmd.out")' (stderr: $outdir/cmd.err)"
fi
if [ "$status" != 0 ] && grep -q "^shell: '.*' exited with status 3$" "$outdir/cmd.err"; then
	echo "ok - shell: a command that fails fails make shell, with its status"
else
	echo "not ok - shell: 'exit 3' gave make status $status (stderr: $outdir/cmd.err)"
fi

# Interactive: the console is a pipe here, the guest's answers a file.
echo "check: make shell, interactive" >&2
console=$outdir/console.txt
mkfifo "$outdir/keys"
timeout -k 5 300 $make -s shell DEVICES="edu" < "$outdir/keys" > "$console" 2>&1 &
guest=$!
exec 7<> "$outdir/keys"
# prompts N: until the console shows N prompts (two minutes).
prompts() {
	local i
	for i in $(seq 600); do
		[ "$(grep -o 'guest:~# ' "$console" | wc -l)" -ge "$1" ] && return 0
		kill -0 "$guest" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}
typed=0
if prompts 1; then
	# The banner's first commands, as it prints them.
	sed -n '/^First/,/^Then/p' "$console" | tr -d '\r' | sed -n 's/^  //p' > "$outdir/first"
	while read -r line; do
		printf '%s\n' "$line" >&7
		typed=$((typed + 1))
		prompts $((typed + 1)) || break
	done < "$outdir/first"
fi
printf 'exit\n' >&7
wait "$guest"
status=$?
exec 7>&-
tr -d '\r' < "$console" > "$outdir/console.log"
# The trace of demo.sh's accesses, without timestamps and map ids.
trace=$(grep -E '^(MARK|MAP|R|W|UNMAP) ' "$outdir/console.log" |
	sed -E 's/^(MARK|MAP|UNMAP) [0-9.]+/\1/; s/^([RW] [0-9]) [0-9.]+/\1/' |
	awk '$1 == "MAP" || $1 == "UNMAP" { $2 = "ID" } $1 == "R" || $1 == "W" { $3 = "ID" } { print }')
edu=$(awk '$1 == "edu" { print $5 }' "$outdir/console.log")
expected="MARK demo: edu accesses begin
MAP ID $edu VIRT 0x1000 0x0 0
R 4 ID $edu 0x10000ed 0x0 0
W 4 ID $(printf '0x%x' $((edu + 4))) 0x12345678 0x0 0
R 4 ID $(printf '0x%x' $((edu + 4))) 0xedcba987 0x0 0
UNMAP ID 0x0 0
MARK demo: edu accesses end"
trace=$(echo "$trace" | awk '$1 == "MAP" { $4 = "VIRT" } { print }')
if [ "$typed" = 3 ] && [ "$trace" = "$expected" ]; then
	echo "ok - shell: the banner's first commands, typed at the prompt, record edu's accesses"
else
	echo "not ok - shell: typed $typed of the banner's 3 commands (console: $outdir/console.log)"
	echo "$trace" | sed 's/^/# /'
fi
if [ "$status" = 0 ] && grep -q 'reboot: Power down' "$outdir/console.log"; then
	echo "ok - shell: exit at the prompt powers the guest off, and make shell ends with 0"
else
	echo "not ok - shell: exit at the prompt: make shell ended with $status (console: $outdir/console.log)"
fi
