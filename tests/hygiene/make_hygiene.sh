#!/usr/bin/env bash
# `make` and `make install` must not install packages or edit /etc (a user's machine is
# not a test bench). Runs them with apt-get, apt and package-changing dpkg calls replaced
# by stubs that record the call and fail, diffs /etc before and after, and once more with
# a build package reported missing: make must stop, name the package and `make deps`,
# and still change nothing. TAP on stdout.
# Usage: make_hygiene.sh [REPO]
set -uo pipefail
repo=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }

# Stubs: a call that would change the system's packages is logged and refused. apt-get
# with a private source list (scripts/iproute2-src.sh fetching iproute2's source into
# build/) passes through to the real one.
mkdir -p "$tmp/bin"
real_aptget=$(command -v apt-get) real_dpkg=$(command -v dpkg) real_dq=$(command -v dpkg-query)
cat > "$tmp/bin/apt-get" <<EOF
#!/bin/sh
case "\$*" in
*Dir::Etc::SourceList=$repo/build/*) exec "$real_aptget" "\$@" ;;
esac
echo "apt-get \$*" >> "$tmp/calls"; exit 100
EOF
cat > "$tmp/bin/apt" <<EOF
#!/bin/sh
echo "apt \$*" >> "$tmp/calls"; exit 100
EOF
cat > "$tmp/bin/dpkg" <<EOF
#!/bin/sh
for a in "\$@"; do
	case \$a in
	-i|--install|--unpack|--configure|-r|--remove|-P|--purge|--set-selections)
		echo "dpkg \$*" >> "$tmp/calls"; exit 2 ;;
	esac
done
exec "$real_dpkg" "\$@"
EOF
# dpkg-query, with the package named in \$HIDE_PKG reported not installed
cat > "$tmp/bin/dpkg-query" <<EOF
#!/bin/sh
for a in "\$@"; do [ -n "\${HIDE_PKG:-}" ] && [ "\$a" = "\$HIDE_PKG" ] && exit 1; done
exec "$real_dq" "\$@"
EOF
chmod +x "$tmp/bin"/*

etc_state() {	# every entry under /etc: path, type, mode, size, mtime, and content hash
	find /etc -xdev -printf '%p %y %m %s %T@\n' 2>/dev/null | sort
	find /etc -xdev -type f -readable -print0 2>/dev/null | sort -z | xargs -0 md5sum 2>/dev/null
}

# Run make TARGET... with the stubs; leaves its status in $rc, output in $tmp/out.
run_make() {
	: > "$tmp/calls"
	etc_state > "$tmp/etc.before"
	PATH="$tmp/bin:$PATH" make -C "$repo" -s "$@" > "$tmp/out" 2>&1
	rc=$?
	etc_state > "$tmp/etc.after"
}
etc_unchanged() {
	if cmp -s "$tmp/etc.before" "$tmp/etc.after"; then
		ok "$1: /etc unchanged"
	else
		not_ok "$1: /etc changed: $(diff "$tmp/etc.before" "$tmp/etc.after" | grep '^[<>]' | head -n 5 | tr '\n' ';')"
	fi
}
no_pkg_calls() {
	if [ -s "$tmp/calls" ]; then
		not_ok "$1: package manager called: $(head -n 3 "$tmp/calls" | tr '\n' ';')"
	else
		ok "$1: no package installed or removed"
	fi
}

echo "TAP version 13"
echo "1..9"

run_make all
if [ $rc = 0 ]; then ok "make: builds"; else not_ok "make: exit $rc: $(tail -n 3 "$tmp/out" | tr '\n' ';')"; fi
no_pkg_calls make
etc_unchanged make

run_make install DESTDIR="$tmp/dest"
if [ $rc = 0 ] && [ -n "$(find "$tmp/dest" -name sch_airfair.ko)" ] && [ -n "$(find "$tmp/dest" -name q_airfair.so)" ]; then
	ok "make install DESTDIR: module and tc plugin installed under DESTDIR"
else
	not_ok "make install DESTDIR: exit $rc: $(tail -n 3 "$tmp/out" | tr '\n' ';')"
fi
no_pkg_calls "make install"
etc_unchanged "make install"

HIDE_PKG=libmnl-dev run_make all
if [ $rc != 0 ] && grep -q 'libmnl-dev' "$tmp/out" && grep -q 'make deps' "$tmp/out"; then
	ok "make with libmnl-dev missing: stops, names the package and 'make deps' ($(grep -m1 libmnl-dev "$tmp/out"))"
else
	not_ok "make with libmnl-dev missing: exit $rc, output: $(head -n 3 "$tmp/out" | tr '\n' ';')"
fi
no_pkg_calls "make with a package missing"
etc_unchanged "make with a package missing"
exit $failed
