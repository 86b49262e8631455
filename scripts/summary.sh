#!/usr/bin/env bash
# Total the TAP files in a results directory: one line per suite, then the overall
# "N passed, N failed, N skipped". Only top-level test lines count (not nested output).
# A VM suite whose guest died of an emulator fault and ran again (vm/run.sh) counts from
# its last "# vm: rerun" line on; the reruns are listed.
# Exit status: 1 if anything failed.
set -uo pipefail
# the part of a TAP file that counts: from the last rerun on
counted() {
	awk '/^# vm: rerun/ { n = 0; next } { l[++n] = $0 } END { for (i = 1; i <= n; i++) print l[i] }' "$1"
}
dir=${1:-build/results}
tp=0 tf=0 ts=0
declare -A kp kf ks
printf '\n%-36s %7s %7s %8s  %s\n' suite passed failed skipped "(nested subtests ok/not ok)"
for f in "$dir"/*.tap; do
	[ -e "$f" ] || continue
	read -r p fl s np nf < <(awk '
		/^ok /     { if (tolower($0) ~ /# skip/) s++; else p++ }
		/^not ok / { if (tolower($0) ~ /# (skip|todo)/) s++; else f++ }
		/^# ok /     { np++ }
		/^# not ok / { nf++ }
		END { print p+0, f+0, s+0, np+0, nf+0 }' < <(counted "$f"))
	nested=""
	[ $((np + nf)) -gt 0 ] && nested="($np/$nf)"
	printf '%-36s %7d %7d %8d  %s\n' "$(basename "$f" .tap)" "$p" "$fl" "$s" "$nested"
	tp=$((tp + p)) tf=$((tf + fl)) ts=$((ts + s))
	# VM suites are named <suite>-<kernel release>
	name=$(basename "$f" .tap)
	case $name in
	harness-*|selftest-*|hook-*|build-*)
		k=${name#*-}
		kp[$k]=$((${kp[$k]:-0} + p)) kf[$k]=$((${kf[$k]:-0} + fl)) ks[$k]=$((${ks[$k]:-0} + s)) ;;
	esac
done
echo
for k in $(printf '%s\n' "${!kp[@]}" | sort -V); do
	printf 'kernel %-28s %7d %7d %8d\n' "$k" "${kp[$k]}" "${kf[$k]}" "${ks[$k]}"
done
# What failed, close to the last line (a CI page may show only the end of the log): each
# failed test, and for a suite that died without naming one (a guest that panicked) the
# last console lines that say why.
if [ "$tf" -gt 0 ]; then
	echo
	echo "failed:"
	for f in "$dir"/*.tap; do
		[ -e "$f" ] || continue
		awk -v s="$(basename "$f" .tap)" '
			/^not ok / && tolower($0) !~ /# (skip|todo)/ {
				print "  " s ": " $0
				if ($0 ~ /without reporting a failed test/)
					for (i = 1; i <= k; i++) print "    | " tail[i]
			}
			/BUG:|Oops|Kernel panic|RIP:|WARNING:|general protection|soft lockup|^# vm:|^# *not ok|^# selftests: / {
				if (k == 6) { for (i = 1; i < 6; i++) tail[i] = tail[i + 1]; k = 5 }
				tail[++k] = substr($0, 1, 150)
			}' < <(counted "$f") | head -n 12
	done
fi
if grep -qs '^# vm: rerun' "$dir"/*.tap; then
	echo
	echo "run again after an emulator fault (vm/emulator-fault.sh):"
	grep -H '^# vm: rerun' "$dir"/*.tap | sed "s|^$dir/||; s|\.tap:# vm: rerun: | |; s/^/  /" | cut -c1-150
fi
echo "$tp passed, $tf failed, $ts skipped"
[ "$tf" -eq 0 ] && [ "$tp" -gt 0 ]
