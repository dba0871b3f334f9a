#!/usr/bin/env bash
# The global lock's file reads: before and after b07cadd, HEAD against the
# fix (comparisons outside the lock), each with and without huge pages;
# then the fix's curve from 1 to 16 threads.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
D=.devdata; mkdir -p $D; tar xzf .devpack/bins.tgz -C $D
nproc; uptime
W=/tmp/w; mkdir -p $W
.devpack/ex/gen_crawl .devpack/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
python3 - "$W" <<'PY' 2>&1 | tee $OUT/run3.txt
import os, resource, subprocess, sys, time
w = sys.argv[1]
D = ".devdata"
bins = [f"{D}/rb-old", f"{D}/bis/rb-af50913", f"{D}/bis/rb-b07cadd",
        f"{D}/target/release/robots-batch", f"{D}/bis/rb-fix",
        f"{D}/bis/rb-head-thp", f"{D}/bis/rb-fix-thp"]
def one(b, j, log):
    t = time.perf_counter(); u0 = os.times(); f0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    subprocess.run([b, "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times(); f1 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    print(f"{b.split('/')[-1]:14} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} user {u1.children_user - u0.children_user:6.2f} sys {u1.children_system - u0.children_system:6.2f} minflt {f1 - f0}", flush=True)
for r in range(3):
    for log in ("grouped", "shuffled"):
        for b in bins:
            one(b, 16, log)
print("curve", flush=True)
for r in range(2):
    for j in (1, 2, 4, 8, 16):
        for log in ("grouped", "shuffled"):
            one(f"{D}/bis/rb-fix", j, log)
PY
uptime
