#!/usr/bin/env bash
# The device run: scaling from 1 to 16 threads of crawl mode and of the
# command (scripts/bench-crawl), the code before the file-read-when-judged
# rounds (rb-old) against now on the same logs, and the command on 50 M URLs.
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=.devdata/target ROBOTS_BATCH_DATASETS=$PWD/.devdata/datasets PYTHONUNBUFFERED=1
nproc; free -g | head -2; uptime
W=/tmp/w
python3 scripts/bench-crawl --no-build --revision "$1" --threads 1,2,4,8,16 \
  --runs 3 --idle-wait 0 --work $W --keep --out $OUT/crawl 2>&1 | tee $OUT/crawl.log
uptime
python3 - "$W" <<'PY' 2>&1 | tee $OUT/before-after.txt
import subprocess, sys, time
w = sys.argv[1]
for j, runs in ((1, 1), (2, 2), (16, 2)):
    for log in ("grouped", "shuffled"):
        for r in range(runs):
            for b in (".devdata/rb-old", ".devdata/target/release/robots-batch"):
                t = time.perf_counter()
                subprocess.run([b, "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                                "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                               stdout=subprocess.DEVNULL, check=True)
                print(b.split("/")[-1], log, f"-j{j}", f"run{r + 1}",
                      f"{time.perf_counter() - t:.3f} s", flush=True)
PY
B=.devdata/target/release
R=.devdata/datasets/robots/www.gartner.com.txt
$B/examples/gen_urls $R 50000000 1 BenchBot > /tmp/single50.log 2> $OUT/gen.txt
ls -la /tmp/single50.log
python3 - <<'PY' 2>&1 | tee $OUT/single50.txt
import subprocess, time
B = ".devdata/target/release/robots-batch"
R = ".devdata/datasets/robots/www.gartner.com.txt"
L = "/tmp/single50.log"
cmds = [("wc -l", ["wc", "-l", L])] + [
    (f"robots-batch -j{j}", [B, f"-j{j}", "--no-header", "-a", "BenchBot", R, L])
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
uptime
