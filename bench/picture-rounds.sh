#!/bin/sh
# The picture at scale, paired: runs test/e2e/picture.e2e.ts's
# 500-session / 5 000-message test against two builds in interleaved rounds
# (A B A B …), each with the load average before it, and prints the page's
# own measurements (applied/drawn per update, the empty-frame baseline).
# Usage: bench/picture-rounds.sh DIST_A DIST_B [ROUNDS]   (each a built dist/)
# It swaps ./dist for each run and puts the original back at the end.
set -eu
A=$1
B=$2
ROUNDS=${3:-3}
[ -d "$A/cli" ] && [ -d "$B/cli" ] || { echo "give two built dist/ directories" >&2; exit 2; }
KEEP=bench/.out/dist-kept.$$
mkdir -p bench/.out
[ -e dist ] && mv dist "$KEEP"
restore() { rm -rf dist; [ -e "$KEEP" ] && mv "$KEEP" dist; }
trap restore EXIT INT TERM
i=1
while [ "$i" -le "$ROUNDS" ]; do
  for side in A B; do
    if [ "$side" = A ]; then src=$A; else src=$B; fi
    rm -rf dist && cp -r "$src" dist
    echo "round $i $side ($src) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    npx playwright test test/e2e/picture.e2e.ts -g '500 sessions' 2>&1 | grep -E 'picture scale|passed|failed' || true
  done
  i=$((i + 1))
done
git checkout -q -- docs/screenshots 2>/dev/null || true # the test's screenshots: pixel noise, not a new look
