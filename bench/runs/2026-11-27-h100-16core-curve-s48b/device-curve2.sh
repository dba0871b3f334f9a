#!/usr/bin/env bash
# The crawl curve at HEAD: scripts/bench-crawl 1..16 threads (crawl
# grouped, shuffled, single-host), best of 2.
set -uo pipefail
export PYTHONUNBUFFERED=1
D=/tmp/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
export CARGO_TARGET_DIR=$D/target ROBOTS_BATCH_DATASETS=$D/datasets
nproc; uptime; cat /sys/kernel/mm/transparent_hugepage/enabled
date +%T
python3 scripts/bench-crawl --no-build --revision "$1" --threads 1,2,4,8,16 \
  --runs 2 --idle-wait 0 --work /tmp/w --out $OUT/crawl > $OUT/crawl.log 2>&1
tail -24 $OUT/crawl.log
date +%T; uptime
