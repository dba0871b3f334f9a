#!/usr/bin/env bash
# Which change slowed crawl at -j16: the same logs, each binary in turn,
# interleaved rounds; wall, user, system seconds and minor faults.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
nproc; uptime; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; lscpu | grep -i 'model name'
W=/tmp/w; mkdir -p $W
.devdata/target/release/examples/gen_crawl .devdata/datasets/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
python3 - "$W" <<'PY' 2>&1 | tee $OUT/bisect.txt
import os, subprocess, sys, time
w = sys.argv[1]
bins = [".devdata/rb-old"] + [f".devdata/bis/rb-{r}" for r in
        ("09ce229", "1c93898", "c9bd651", "14eb56f")] + [
        ".devdata/target/release/robots-batch", ".devdata/bis/rb-head-thp"]
def one(b, j, log):
    t = time.perf_counter(); u0 = os.times(); f0 = __import__("resource").getrusage(__import__("resource").RUSAGE_CHILDREN).ru_minflt
    subprocess.run([b, "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times(); f1 = __import__("resource").getrusage(__import__("resource").RUSAGE_CHILDREN).ru_minflt
    print(f"{b.split('/')[-1]:14} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} user {u1.children_user - u0.children_user:6.2f} sys {u1.children_system - u0.children_system:6.2f} minflt {f1 - f0}", flush=True)
for r in range(3):
    for log in ("grouped", "shuffled"):
        for b in bins:
            one(b, 16, log)
for r in range(2):
    for b in bins:
        one(b, 2, "grouped")
for b in (".devdata/target/release/robots-batch", ".devdata/bis/rb-head-thp") * 2:
    one(b, 1, "grouped")
PY
uptime
