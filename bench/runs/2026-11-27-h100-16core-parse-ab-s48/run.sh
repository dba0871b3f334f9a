set -u
D=/tmp/ab; mkdir -p $D; cp .devpack/ab/base .devpack/ab/new $D/; chmod +x $D/base $D/new
tar xzf .devpack/ab/data.tgz -C $D
uptime; nproc
cmp <($D/base crawl --dialect google -j1 --on-missing allow --robots-dir $D/robots -a BenchBot $D/k100-shuffled.log | md5sum) <($D/new crawl --dialect google -j1 --on-missing allow --robots-dir $D/robots -a BenchBot $D/k100-shuffled.log | md5sum) && echo same-output
python3 .devpack/ab/ab.py $D 30 | tee $OUT/ab.txt
uptime
