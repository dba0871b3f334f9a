#!/usr/bin/env python3
# Interleaved A/B on the crawl-peers logs: wall time and minor faults per run.
import os, subprocess, sys, time, statistics, json
D = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("OUT", "/tmp")
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
variants = [("base", "base", []), ("new", "new", []),
            ("base-1M", "base", ["--chunk-size", "1085108"])]
logs = ["k10-shuffled.log", "k100-grouped.log", "k100-shuffled.log"]
threads = [1, 2, 4, 16]
res = {}
def run(binary, j, extra, log):
    cmd = [f"{D}/bin/{binary}", "crawl", "--dialect", "google", "--max-robots-bytes", "0",
           f"-j{j}", "--on-missing", "allow", "--robots-dir", f"{D}/logs/robots",
           "--no-header", "-a", "BenchBot"] + extra + [f"{D}/logs/{log}"]
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    assert status == 0, cmd
    return dt, ru.ru_minflt
for r in range(rounds):
    for log in logs:
        for j in threads:
            vs = variants if r % 2 == 0 else list(reversed(variants))
            for name, binary, extra in vs:
                if name == "base-1M" and not log.startswith("k100"):
                    continue
                dt, flt = run(binary, j, extra, log)
                res.setdefault(f"{log} -j{j} {name}", []).append((dt, flt))
lines = []
for key, v in res.items():
    ts = sorted(x[0] for x in v); fl = statistics.median(x[1] for x in v)
    lines.append(f"{key:32} min {ts[0]*1e3:7.1f} ms  median {statistics.median(ts)*1e3:7.1f} ms  faults {fl:8.0f}  (n={len(ts)})")
print("\n".join(lines))
open(f"{OUT}/ab.txt", "w").write("\n".join(lines) + "\n")
json.dump(res, open(f"{OUT}/ab.json", "w"))
