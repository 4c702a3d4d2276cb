#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks, then configures heatrk4 in Release under build/
# and builds the command line heatrk4 (and what it links), all a run needs; with --tests, also the
# rest (the test programs, the Python module, the benchmarks) for ctest. Safe to run again: it
# installs only what is missing and rebuilds incrementally.
# usage: scripts/setup.sh [--tests]
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(--target heatrk4)
case "${1:-}" in
  "") ;;
  --tests) targets=() ;;
  *) echo "usage: scripts/setup.sh [--tests]" >&2; exit 2 ;;
esac

packages=(cmake g++ make gdb libomp-dev libhdf5-dev zlib1g-dev hdf5-tools libcli11-dev libgtest-dev libvtk9-dev
          paraview xvfb xauth python3-matplotlib python3-numpy clang libopenmpi-dev openmpi-bin
          python3-dev pybind11-dev libtomlplusplus-dev graphviz)
# ZFP-compressed snapshots (libzfp) and the H5Z-ZFP plugin with which ParaView and HDF5's tools read them.
packages+=(libzfp-dev hdf5-filter-plugin-zfp-serial)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # A previous install cut off midway leaves dpkg locked until it is finished.
  dpkg --configure -a
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ParaView's Python modules conflict with python3-vtk9 (which libvtk9-dev needs), so they are
# unpacked into the build tree instead of installed (docs/design.md §6); pvbatch finds them
# through PYTHONPATH in the ParaView test.
paraview_python=build/paraview-python
if [ ! -d "$paraview_python/usr/lib/python3/dist-packages/paraview" ]; then
  mkdir -p "$paraview_python"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download python3-paraview >/dev/null 2>&1) ||
    echo "setup: could not download python3-paraview: the ParaView test will report as skipped"
  for deb in "$tmp"/python3-paraview_*.deb; do [ -f "$deb" ] && dpkg -x "$deb" "$paraview_python"; done
  rm -rf "$tmp"
fi

# nvcc is used when present (CUDA code compiles without a GPU; GPU tests then skip).
export PATH="$PATH:/usr/local/cuda/bin"
# The Python module is built for Debian's Python, whose packages (numpy) the tests import.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build -j"$(nproc)" "${targets[@]}"
