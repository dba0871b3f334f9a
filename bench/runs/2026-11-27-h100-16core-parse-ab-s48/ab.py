# Interleaved A/B of two robots-batch binaries on the crawl-peers k-logs,
# Google's dialect, one thread, whole process; best and median per log.
import os, statistics, subprocess, sys, time
D = sys.argv[1]; rounds = int(sys.argv[2])
logs = [f"k{k}-{o}.log" for k in (1, 3, 10, 100) for o in ("grouped", "shuffled")]
bins = ["base", "new"]
t = {(b, l): [] for b in bins for l in logs}
for r in range(rounds):
    for l in logs:
        for b in (bins if r % 2 == 0 else bins[::-1]):
            cmd = [f"{D}/{b}", "crawl", "--dialect", "google", "--max-robots-bytes", "0", "-j1",
                   "--on-missing", "allow", "--robots-dir", f"{D}/robots", "--no-header",
                   "-a", "BenchBot", f"{D}/{l}"]
            s = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            t[(b, l)].append(time.perf_counter() - s)
print(f"{rounds} interleaved rounds, ms: best / median (base -> new), new/base by median")
for l in logs:
    a, n = t[("base", l)], t[("new", l)]
    print(f"{l:18} {min(a)*1e3:7.2f} / {statistics.median(a)*1e3:7.2f} -> "
          f"{min(n)*1e3:7.2f} / {statistics.median(n)*1e3:7.2f}   "
          f"{statistics.median(n)/statistics.median(a):.3f}")
