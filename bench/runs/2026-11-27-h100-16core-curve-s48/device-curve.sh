#!/usr/bin/env bash
# The curve at HEAD: scripts/bench-crawl 1..16 threads (crawl grouped,
# shuffled, single-host), then the command on 50 M URLs of one site,
# then -j15 against -j16 on the crawl logs.
set -uo pipefail
export PYTHONUNBUFFERED=1
D=/tmp/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
export CARGO_TARGET_DIR=$D/target ROBOTS_BATCH_DATASETS=$D/datasets
nproc; free -g | head -2; uptime; grep -m1 'model name' /proc/cpuinfo; cat /sys/kernel/mm/transparent_hugepage/enabled
W=/tmp/w
date +%T
python3 scripts/bench-crawl --no-build --revision "$1" --threads 1,2,4,8,16 \
  --runs 3 --idle-wait 0 --work $W --keep --out $OUT/crawl > $OUT/crawl.log 2>&1
tail -30 $OUT/crawl.log
date +%T; uptime
B=$D/target/release
R=$D/datasets/robots/www.gartner.com.txt
$B/examples/gen_urls $R 50000000 1 BenchBot > /tmp/single50.log 2> $OUT/gen.txt
python3 - "$B" "$R" <<'PY' 2>&1 | tee $OUT/single50.txt
import subprocess, sys, time
B, R = sys.argv[1:3]
L = "/tmp/single50.log"
cmds = [("wc -l", ["wc", "-l", L])] + [
    (f"robots-batch -j{j}", [f"{B}/robots-batch", f"-j{j}", "--no-header", "-a", "BenchBot", R, L])
    for j in (1, 2, 4, 8, 16)]
best = {}
for r in range(3):
    for name, cmd in cmds:
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        s = time.perf_counter() - t
        best[name] = min(best.get(name, s), s)
        print(f"round {r + 1}: {name}: {s:.3f} s", flush=True)
for name, s in best.items():
    print(f"best {name}: {s:.3f} s, {50e6 / s / 1e6:.1f} M URLs/s")
PY
rm -f /tmp/single50.log
date +%T
python3 - "$B" "$W" <<'PY' 2>&1 | tee $OUT/j15.txt
import subprocess, sys, time
B, w = sys.argv[1:3]
for r in range(3):
    for log in ("grouped", "shuffled"):
        for j in (15, 16):
            t = time.perf_counter()
            subprocess.run([f"{B}/robots-batch", "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                            "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                           stdout=subprocess.DEVNULL, check=True)
            print(f"round {r + 1} {log:8} -j{j} {time.perf_counter() - t:.3f} s", flush=True)
PY
date +%T; uptime
