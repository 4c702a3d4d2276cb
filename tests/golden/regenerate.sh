#!/bin/sh
# Regenerates the golden snapshots from cases.txt with the product's own run command:
#   tests/golden/regenerate.sh BUILD_DIR/apps/heatrk4
# Only do this when a change to the numbers is intended, and say why in the commit: the point
# of these files is that test_golden fails when the numbers change by accident.
set -eu
heatrk4=${1:?usage: regenerate.sh PATH/TO/heatrk4}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$here/cases.txt" | while read -r order seed alpha cfl steps; do
  "$heatrk4" run --n 24 --h 1 --order "$order" --seed "$seed" --alpha "$alpha" --cfl "$cfl" --steps "$steps" \
    --init randn --precision double --backend cpu --format hdf5 --output "$work/order$order" --quiet
  cp "$work/order$order/heat_$(printf %06d "$steps").hdf" "$here/order$order.hdf"
  echo "wrote $here/order$order.hdf"
done
