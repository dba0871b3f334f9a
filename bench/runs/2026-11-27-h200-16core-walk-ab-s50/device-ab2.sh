#!/bin/bash
# c2d31c4 against the counted walk: k=100 logs and the 10 M shuffled log.
set -u
D=/tmp/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
G=$D/target/release/examples/gen_crawl
nproc; uptime
$G --dialect google --max-robots-bytes 0 --per-host 100 $D/datasets/robots /tmp/k 1 BenchBot > /dev/null
$G --dialect google --max-robots-bytes 0 $D/datasets/robots /tmp/w 100000 10000000 1 BenchBot > /dev/null
ls /tmp/k | head; uptime
python3 - <<'PY' 2>&1 | tee $OUT/ab2.txt
import subprocess, time, statistics
def run(b, log, robots, j):
    cmd = [f".devpack/rb-{b}", "crawl", "--dialect", "google", "--max-robots-bytes", "0", f"-j{j}",
           "--on-missing", "allow", "--robots-dir", robots, "--no-header", "-a", "BenchBot", log]
    s = time.perf_counter(); subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - s
for (log, robots, j, rounds) in [("/tmp/k/k100-shuffled.log", "/tmp/k/robots", 1, 30),
                                 ("/tmp/k/k100-grouped.log", "/tmp/k/robots", 1, 30),
                                 ("/tmp/w/shuffled.log", "/tmp/w/robots", 1, 4),
                                 ("/tmp/w/shuffled.log", "/tmp/w/robots", 16, 6)]:
    t = {"c2d": [], "walk": []}
    for r in range(rounds):
        for b in (("c2d", "walk") if r % 2 == 0 else ("walk", "c2d")):
            t[b].append(run(b, log, robots, j))
    for b, v in t.items():
        print(f"{log} -j{j} {b}: min {min(v):.4f} median {statistics.median(v):.4f} max {max(v):.4f} ({len(v)} runs)", flush=True)
PY
uptime
