#!/usr/bin/env bash
# Proves that Cairn works as a versioned dependency: clones this checkout, tags the clone, and
# builds and runs Scripts/consumer (a package that depends on Cairn by `file://` URL and
# version, as `.package(url:from:)` in a user's manifest does).
#
#   Scripts/check-consumer.sh [WORK_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/cairn-consumer.XXXXXX")}"
version=0.1.0

rm -rf "$work/Cairn" "$work/Consumer"
mkdir -p "$work"
# A clone holds only what is committed, as a user's dependency would.
git clone -q "$root" "$work/Cairn"
git -C "$work/Cairn" -c user.name=ci -c user.email=ci@localhost tag -f "$version" >/dev/null

cp -R "$root/Scripts/consumer" "$work/Consumer"
sed -i "s|CAIRN_URL|file://$work/Cairn|; s|CAIRN_VERSION|$version|" "$work/Consumer/Package.swift"

cd "$work/Consumer"
swift build
swift run Consumer
