#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make deb: build the Debian packages airfair-dkms and airfair-tools from a copy of the
# tree (the files git tracks or would, as they are in the work tree) in build/deb/, then run
# lintian on them. Packages land in build/deb/. Installs nothing: the build
# dependencies must be there (scripts/deps.sh deb says which are missing).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
"$repo/scripts/deps.sh" --check deb
version=$(cat VERSION)
clv=$(dpkg-parsechangelog -S Version)
if [ "$clv" != "$version" ]; then
	echo "make-deb: debian/changelog is at $clv, VERSION says $version: add a changelog entry (dch -v $version)" >&2
	exit 1
fi
out=$repo/build/deb
stage=$out/airfair-$version
rm -rf "$out"
mkdir -p "$stage"
git ls-files -z -co --exclude-standard | while IFS= read -r -d "" f; do [ -e "$f" ] && printf "%s\0" "$f"; done |
	xargs -0 cp -p --parents -t "$stage"
# the tc plugin's iproute2 headers: fetched once into this tree's build/
IPROUTE2_SRC=$("$repo/scripts/iproute2-src.sh")
export IPROUTE2_SRC
(cd "$stage" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "make-deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
}
ls "$out"/*.deb
changes=$(ls "$out"/airfair_"$version"_*.changes)
echo "lintian:"
lintian --info "$changes" | tee "$out/lintian.txt" | sed 's/^/  /'
[ -s "$out/lintian.txt" ] || echo "  (nothing to report)"
