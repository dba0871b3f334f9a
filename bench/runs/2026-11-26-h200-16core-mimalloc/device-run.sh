#!/usr/bin/env bash
# The device run: scaling from 1 to 16 threads of the command and of crawl
# mode (scripts/bench-crawl), then the binary before the lock-free cache at
# -j4/-j8/-j16 on the same logs.
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=.devdata/target ROBOTS_BATCH_DATASETS=$PWD/.devdata/datasets
nproc; free -g | head -2; df -h /tmp | tail -1; python3 --version
W=/tmp/w
python3 scripts/bench-crawl --no-build --revision "$1" --threads 1,2,4,8,16 \
  --runs 2 --idle-wait 0 --work $W --keep --out $OUT/crawl 2>&1 | tee $OUT/crawl.log
python3 - "$W" <<'PY' 2>&1 | tee $OUT/before-after.txt
import subprocess, sys, time
w = sys.argv[1]
for j in (2, 16):
    for log in ("grouped", "shuffled"):
        for b in (".devdata/rb-old", ".devdata/target/release/robots-batch"):
            for r in (1, 2):
                t = time.perf_counter()
                subprocess.run([b, "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                                "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                               stdout=subprocess.DEVNULL, check=True)
                print(b.split("/")[-1], log, f"-j{j}", f"run{r}",
                      f"{time.perf_counter() - t:.3f} s", flush=True)
PY
