#!/bin/bash
# io-starvation alone, old (24d8567, /tmp/wtC) against new (96e7716, /work/main), JDK 25 then JDK 17, 10 runs each.
for j in 25 17; do
  jh=/usr/lib/jvm/temurin-25-jdk-amd64; [ $j = 17 ] && jh=/usr/lib/jvm/java-17-openjdk-amd64
  for v in old new new old; do
    dir=/work/main; [ $v = old ] && dir=/tmp/wtC
    n=1; while [ -e /tmp/pp/starv-$v-jdk$j-$n ]; do n=$((n+1)); done
    (cd $dir && JAVA_HOME=$jh PATH=$jh/bin:$PATH bin/spindle-bench --only io-starvation --pools spindle-jec --threads 2 --runs 10 --warmup 1 --warmup-ms 0 --out /tmp/pp/starv-$v-jdk$j-$n > /dev/null 2>&1)
    python3 -c "
import json
d=json.load(open('/tmp/pp/starv-$v-jdk$j-$n/results.json'))
r=[r for r in d['results'] if r['workload']=='io-starvation'][0]
print('$v jdk$j #$n', 'median %.2f min %.2f max %.2f ms' % (r['median'], r['min'], r['max']))
"
  done
done
