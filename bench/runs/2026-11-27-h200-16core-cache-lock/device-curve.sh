#!/usr/bin/env bash
# The curve at the revision given (scripts/bench-crawl, 1 to 16 threads,
# best of 3), after an interleaved check at -j16 of that revision
# (rb-new) against 9f09b77 (rb-head) and af50913 on the same logs.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
D=.devpack/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
export CARGO_TARGET_DIR=$D/target ROBOTS_BATCH_DATASETS=$PWD/$D/datasets
cp $D/target/release/robots-batch $D/bis/rb-new
nproc; uptime
W=/tmp/w; mkdir -p $W
$D/target/release/examples/gen_crawl $D/datasets/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
python3 - "$W" "$D" <<'PY' 2>&1 | tee $OUT/check16.txt
import os, resource, subprocess, sys, time
w, d = sys.argv[1:3]
def one(b, j, log):
    t = time.perf_counter(); u0 = os.times()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([f"{d}/bis/rb-{b}", "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{b:8} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} "
          f"user {u1.children_user - u0.children_user:6.2f} sys {u1.children_system - u0.children_system:6.2f} "
          f"nvcsw {r1.ru_nvcsw - r0.ru_nvcsw} nivcsw {r1.ru_nivcsw - r0.ru_nivcsw}", flush=True)
for r in range(3):
    for log in ("grouped", "shuffled"):
        for b in ("af50913", "head", "new"):
            one(b, 16, log)
PY
python3 scripts/bench-crawl --no-build --revision "$1" --threads 1,2,4,8,16 \
  --runs 3 --idle-wait 0 --work $W --keep --out $OUT/crawl 2>&1 | tail -40 | tee $OUT/crawl.log
uptime
