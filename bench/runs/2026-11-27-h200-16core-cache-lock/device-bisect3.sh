#!/usr/bin/env bash
# Which commit between af50913 and 09ce229 slowed crawl mode at -j16, and
# whether starting each chunk's sorted walk at its first URL's origin
# (rb-rot) takes back the waits: the same 10 M logs, each binary in turn,
# interleaved rounds; wall, user, system seconds and context switches.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
nproc; uptime; lscpu | grep -i 'model name'; cat /sys/kernel/mm/transparent_hugepage/enabled
(cd .devpack && tar xzf bins.tgz && tar xzf robots.tgz)
W=/tmp/w; mkdir -p $W
T0=$(date +%s)
.devpack/gen_crawl .devpack/robots $W 100000 10000000 1 BenchBot 2>&1 | tail -1
echo "gen $(( $(date +%s) - T0 )) s"
python3 - "$W" <<'PY' 2>&1 | tee $OUT/bisect3.txt
import os, resource, subprocess, sys, time
w = sys.argv[1]
B = ".devpack/bis"
bins = [f"{B}/rb-{r}" for r in ("af50913", "b07cadd", "1133f04", "72a5acc",
        "01d9ca3", "045c48a", "eedde67", "09ce229", "head", "rot")]
def one(b, j, log):
    t = time.perf_counter(); u0 = os.times()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([b, "crawl", f"-j{j}", "--robots-dir", f"{w}/robots",
                    "--no-header", "-a", "BenchBot", f"{w}/{log}.log"],
                   stdout=subprocess.DEVNULL, check=True)
    u1 = os.times(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{b.split('/')[-1]:12} {log:8} -j{j:<2} wall {time.perf_counter() - t:6.3f} "
          f"user {u1.children_user - u0.children_user:6.2f} sys {u1.children_system - u0.children_system:6.2f} "
          f"nvcsw {r1.ru_nvcsw - r0.ru_nvcsw} nivcsw {r1.ru_nivcsw - r0.ru_nivcsw}", flush=True)
for r in range(5):
    for log in ("grouped", "shuffled"):
        for b in bins:
            one(b, 16, log)
print("eight", flush=True)
for r in range(3):
    for log in ("grouped", "shuffled"):
        for b in (f"{B}/rb-head", f"{B}/rb-rot"):
            one(b, 8, log)
PY
if command -v perf >/dev/null; then
  for b in af50913 head rot; do
    perf stat -e context-switches,cpu-migrations,task-clock .devpack/bis/rb-$b crawl -j16 --robots-dir $W/robots --no-header -a BenchBot $W/shuffled.log 2>&1 >/dev/null | tail -12 | tee -a $OUT/perf.txt
  done
else echo "no perf"; fi
uptime
