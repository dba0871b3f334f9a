#!/usr/bin/env bash
# The command's scaling on a larger file: 50 M URLs of one site.
set -uo pipefail
cd "$(dirname "$0")/.."
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
