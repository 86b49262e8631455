#!/usr/bin/env bash
# Total the TAP files in a results directory: one line per suite, then the overall
# "N passed, N failed, N skipped". Only top-level test lines count (not nested output).
# Exit status: 1 if anything failed.
set -uo pipefail
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
		END { print p+0, f+0, s+0, np+0, nf+0 }' "$f")
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
echo "$tp passed, $tf failed, $ts skipped"
[ "$tf" -eq 0 ] && [ "$tp" -gt 0 ]
