#!/usr/bin/env bash
# Fills .deps/ (ignored by git) with Debian packages that the GPU machine lacks, unpacked and not
# installed: the device call carries the folder, and scripts/device_check.sh points CMake at
# .deps/usr when it is there. Run it here, where apt-get can download, before such a call:
#
#   scripts/stage_device_deps.sh     # then: device run with carry [".deps"], scripts/device_check.sh
#
# Safe to run again: it starts from an empty .deps/. Add a package by adding its line below.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  libtomlplusplus-dev # toml++'s headers: --config files (used header-only, apps/config_toml.cpp)
  libzfp1 libzfp-dev  # ZFP-compressed snapshots (io/zfp/zfp_chunks.cpp)
  hdf5-filter-plugin-zfp-serial # H5Z-ZFP, with which the plugin test reads heatrk4's ZFP files
)

deps=.deps
rm -rf "$deps"
mkdir -p "$deps"
downloads=$(mktemp -d)
trap 'rm -rf "$downloads"' EXIT
(cd "$downloads" && apt-get download "${packages[@]}")
for deb in "$downloads"/*.deb; do dpkg -x "$deb" "$deps"; done
echo "stage_device_deps: ${packages[*]} unpacked under $deps/ ($(du -sh "$deps" | cut -f1)); carry \"$deps\""
