#!/usr/bin/env bash
# At -j16: the origin's scanning matchers built when its entry is made
# and evicted entries freed outside the cache's lock (rb-fix12), with the
# chunk walks started at their first URL's origin as well (rb-fix12rot),
# against HEAD and af50913; then fix12rot's curve from 1 to 16 threads.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
nproc; uptime; lscpu | grep -i 'model name'
(cd .devpack && tar xzf bins.tgz && tar xzf robots.tgz)
W=/tmp/w; mkdir -p $W
.devpack/gen_crawl .devpack/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
python3 - "$W" <<'PY' 2>&1 | tee $OUT/fix.txt
import os, resource, subprocess, sys, time
w = sys.argv[1]
B = ".devpack/bis"
def one(b, j, log):
    t = time.perf_counter(); u0 = os.times()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([f"{B}/rb-{b}", "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{b:10} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} "
          f"user {u1.children_user - u0.children_user:6.2f} sys {u1.children_system - u0.children_system:6.2f} "
          f"nvcsw {r1.ru_nvcsw - r0.ru_nvcsw} nivcsw {r1.ru_nivcsw - r0.ru_nivcsw}", flush=True)
for r in range(5):
    for log in ("grouped", "shuffled"):
        for b in ("af50913", "head", "rot", "fix12", "fix12rot"):
            one(b, 16, log)
print("curve", flush=True)
for r in range(3):
    for j in (1, 2, 4, 8, 16):
        for log in ("grouped", "shuffled"):
            one("fix12rot", j, log)
PY
uptime
