#!/bin/bash
# A/B of two binaries on the 10 M crawl logs at -j1 and -j16, interleaved.
W=/tmp/w
if [ ! -f $W/grouped.log ]; then
  D=/tmp/d; mkdir -p $D; tar xzf .devpack/pack.tgz -C $D
  mkdir -p $W; $D/target/release/examples/gen_crawl $D/datasets/robots $W 100000 10000000 1 BenchBot > /dev/null
fi
nproc; uptime
for r in 1 2 3; do
 for j in 1 16; do
  for log in grouped shuffled; do
   for b in base new; do
    /usr/bin/time -f "round $r -j$j $log $b %e s %U u %S s %M KB" .devpack/rb-$b crawl -j$j --robots-dir $W/robots --no-header -a BenchBot $W/$log.log > /dev/null
   done
  done
 done
done 2>&1 | tee $OUT/ab.txt
uptime
