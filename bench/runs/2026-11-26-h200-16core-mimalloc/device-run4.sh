#!/usr/bin/env bash
# The allocator on the single-file job: glibc (rb-old) against mimalloc, same lease.
set -uo pipefail
cd "$(dirname "$0")/.."
R=.devdata/datasets/robots/www.gartner.com.txt
.devdata/target/release/examples/gen_urls $R 20000000 1 BenchBot > /tmp/s20.log 2>/dev/null
python3 - <<'PY' 2>&1 | tee $OUT/alloc.txt
import os, subprocess, time
R = ".devdata/datasets/robots/www.gartner.com.txt"
res = {}
for r in range(5):
    for j in (1, 16):
        for b in (".devdata/rb-old", ".devdata/target/release/robots-batch"):
            t = time.perf_counter(); u0 = os.times()
            subprocess.run([b, f"-j{j}", "--no-header", "-a", "BenchBot", R, "/tmp/s20.log"], stdout=subprocess.DEVNULL, check=True)
            u1 = os.times(); s = time.perf_counter() - t
            cu, cs = u1.children_user - u0.children_user, u1.children_system - u0.children_system
            res.setdefault((b, j), []).append((s, cu, cs))
            print(f"round {r+1} {b.split('/')[-1]} -j{j}: {s:.3f} s wall, {cu:.3f} user, {cs:.3f} sys", flush=True)
for (b, j), v in res.items():
    v.sort()
    print(f"{b.split('/')[-1]} -j{j}: best {v[0][0]:.3f} s, median {v[2][0]:.3f} s, median user {sorted(x[1] for x in v)[2]:.3f}, sys {sorted(x[2] for x in v)[2]:.3f}")
PY
