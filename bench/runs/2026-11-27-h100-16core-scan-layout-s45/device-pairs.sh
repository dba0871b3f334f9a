#!/usr/bin/env bash
# Interleaved rounds at -j1 and -j16 on the 10 M URL crawl logs: 534bd82
# (base), the matcher's dialect kept in the matcher (unr), and that with
# the scan engine's entries laid out bucket by bucket (lay).
set -uo pipefail
D=/tmp/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
B=$D/target/release
cp $B/robots-batch $D/rb-base; cp .devpack/rb-unr .devpack/rb-lay $D/
nproc; uptime
W=/tmp/w; mkdir -p $W
$B/examples/gen_crawl $D/datasets/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
for b in base unr lay; do $D/rb-$b crawl -j16 --robots-dir $W/robots --no-header -a BenchBot $W/shuffled.log | md5sum; done | uniq -c
python3 - "$D" "$W" <<'PY' 2>&1 | tee $OUT/pairs.txt
import os, subprocess, sys, time
d, w = sys.argv[1:3]
def one(b, j, log, r):
    t = time.perf_counter(); u0 = os.times()
    subprocess.run([f"{d}/rb-{b}", "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times()
    print(f"round {r} {b:5} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} "
          f"user {u1.children_user - u0.children_user:6.2f}", flush=True)
for r in range(1, 4):
    for log in ("shuffled", "grouped"):
        for b in ("base", "unr", "lay"):
            one(b, 16, log, r)
for r in range(1, 5):
    for log in ("shuffled", "grouped"):
        for b in ("base", "unr", "lay"):
            one(b, 1, log, r)
PY
uptime
