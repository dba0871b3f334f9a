#!/usr/bin/env bash
# At -j16 and -j8: the judge's cache slots as one RwLock each (rb-slotlock)
# against arc-swap slots (rb-new, 9999830), whose every store walks all
# threads' debt lists under the cache's lock.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
D=.devpack/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
nproc; uptime
W=/tmp/w; mkdir -p $W
$D/gen_crawl $D/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
python3 - "$W" "$D" <<'PY' 2>&1 | tee $OUT/slots.txt
import os, resource, subprocess, sys, time
w, d = sys.argv[1:3]
def one(b, j, log):
    t = time.perf_counter(); u0 = os.times()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([f"{d}/bis/rb-{b}", "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{b:9} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} "
          f"user {u1.children_user - u0.children_user:6.2f} sys {u1.children_system - u0.children_system:6.2f} "
          f"nvcsw {r1.ru_nvcsw - r0.ru_nvcsw} nivcsw {r1.ru_nivcsw - r0.ru_nivcsw}", flush=True)
for r in range(6):
    for log in ("grouped", "shuffled"):
        for b in ("new", "slotlock"):
            one(b, 16, log)
for r in range(2):
    for log in ("grouped", "shuffled"):
        for b in ("new", "slotlock"):
            one(b, 8, log)
PY
uptime
