#!/bin/sh
# `cmake --install BUILD --prefix P` into a fresh temporary prefix, as a user without root does
# with ~/.local: every installed file must lie under P (none in the system's site directory), and
# Python must import heatrk4 from P/SITE_DIR and step a field with it.
# usage: install_under_prefix.sh CMAKE BUILD_DIR PYTHON SITE_DIR
set -eu
cmake=$1 build=$2 python=$3 site_dir=$4
prefix=$(mktemp -d "${TMPDIR:-/tmp}/heatrk4-prefix.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1 || { cat "$prefix.log"; rm -f "$prefix.log"; exit 1; }
rm -f "$prefix.log"
outside=$(grep -v "^$prefix/" "$build/install_manifest.txt" || true)
if [ -n "$outside" ]; then
  echo "installed outside the prefix $prefix:"
  echo "$outside"
  exit 1
fi
[ -x "$prefix/bin/heatrk4" ] || { echo "no $prefix/bin/heatrk4"; exit 1; }
# Only PYTHONPATH may find the module: not the user's site directory (-s), nor the working
# directory (the build tree's python/ holds a module of the same name).
cd "$prefix"
PYTHONPATH="$prefix/$site_dir" "$python" -s - "$prefix" <<'EOF'
import os
import sys
import sysconfig

import numpy as np
import heatrk4

prefix = sys.argv[1]
# Where Python itself lays out a prefix's packages (lib/python3.X/site-packages on Debian).
site = sysconfig.get_path("platlib", "posix_prefix", vars={"base": prefix, "platbase": prefix})
assert os.path.dirname(heatrk4.__file__) == site, f"heatrk4 imported from {heatrk4.__file__}, not from {site}"
u = np.random.default_rng(7).standard_normal((12, 11, 10))
before = u.copy()
heatrk4.step(u, cfl=0.05, h=1.0, steps=2, order=2, backend="cpu")
assert np.isfinite(u).all() and not np.array_equal(u, before), "the installed module did not step the field"
print(f"heatrk4 imported from {heatrk4.__file__} and stepped a field")
EOF
