#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prometheus' node_exporter, for the test that scrapes airfair-stat's textfile output
# (selftests/airfair_stat.sh). Debian's package is downloaded and unpacked into
# build/node-exporter/ rather than installed: installing it would start a system
# service listening on :9100. Prints the binary's path; idempotent.
# Usage: node-exporter.sh [--print-path]   (--print-path: do not download)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$repo/build/node-exporter
bin=$dir/root/usr/bin/prometheus-node-exporter
if [ "${1:-}" = --print-path ] || [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
rm -rf "$dir" && mkdir -p "$dir"
(cd "$dir" && apt-get download -q -o APT::Sandbox::User=root prometheus-node-exporter >/dev/null) || {
	echo "node-exporter: apt-get download prometheus-node-exporter failed" >&2
	exit 1
}
dpkg-deb -x "$dir"/prometheus-node-exporter_*.deb "$dir/root"
[ -x "$bin" ] || { echo "node-exporter: no $bin in the package" >&2; exit 1; }
echo "$bin"
