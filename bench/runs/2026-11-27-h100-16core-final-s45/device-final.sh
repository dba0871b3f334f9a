#!/usr/bin/env bash
# 534bd82 (base) against 096efd1 (head) on the 10 M URL crawl logs,
# interleaved: grouped -j1 five rounds, shuffled -j1 three, both -j2 one;
# then head against texting_robots (examples/texting_crawl), once each.
set -uo pipefail
D=/tmp/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
B=$D/target/release
cp $B/robots-batch $D/rb-base; cp .devpack/rb-head $D/
nproc; uptime
W=/tmp/w; mkdir -p $W
$B/examples/gen_crawl $D/datasets/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
for b in base head; do $D/rb-$b crawl -j16 --robots-dir $W/robots --no-header -a BenchBot $W/shuffled.log | md5sum; done | uniq -c
python3 - "$D" "$W" <<'PY' 2>&1 | tee $OUT/final.txt
import os, subprocess, sys, time
d, w = sys.argv[1:3]
def one(b, j, log, r):
    t = time.perf_counter(); u0 = os.times()
    subprocess.run([f"{d}/rb-{b}", "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times()
    print(f"round {r} {b:5} {log:8} -j{j} wall {time.perf_counter() - t:6.3f} "
          f"user {u1.children_user - u0.children_user:6.2f}", flush=True)
for r in range(1, 6):
    for b in ("base", "head"):
        one(b, 1, "grouped", r)
for r in range(1, 4):
    for b in ("base", "head"):
        one(b, 1, "shuffled", r)
for r in range(1, 2):
    for log in ("grouped", "shuffled"):
        for b in ("base", "head"):
            one(b, 2, log, r)
PY
uptime
python3 - "$D" "$W" <<'PY' 2>&1 | tee $OUT/texting.txt
import os, resource, subprocess, sys, time
d, w = sys.argv[1:3]
for log in ("grouped", "shuffled"):
    for name, cmd in (
        ("head --dialect google", [f"{d}/rb-head", "crawl", "--dialect", "google", "-j1",
          "--on-missing", "allow", "--robots-dir", f"{w}/robots", "--no-header",
          "-a", "BenchBot", f"{w}/{log}.log"]),
        ("texting", [".devpack/texting_crawl", f"{w}/robots", f"{w}/{log}.log", "BenchBot"])):
        t = time.perf_counter(); u0 = os.times()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        u1 = os.times()
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"{log:8} {name:22} rc {p.returncode} wall {time.perf_counter() - t:7.3f} "
              f"user {u1.children_user - u0.children_user:6.2f} max child RSS so far {rss // 1024} MiB "
              f"{p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}", flush=True)
PY
uptime
