#!/bin/bash
# temporary (t18, call B): build, the reference problem with --check, run_all, e2e
export OUT=${OUT:-/tmp/o}
export COMMIT=$(cat .commit 2>/dev/null || echo unknown)
BACKENDS=tiled scripts/device_check.sh build reference results e2e > $OUT/stdout.log 2>&1
grep -E "PASS|FAIL|ms/step|x floor|run_all|wall|real|exit [1-9]|tiled +float +600|tiled +double +600" $OUT/stdout.log | head -60
rm -f $OUT/stdout.log
ls $OUT
