#!/bin/bash
# io-starvation alone in the runner: old (24d8567, before the watchdog's new-IO hint) against new (the session's head),
# 10 runs per invocation, six invocations per version and JDK in the order old new new old old new.
while ! grep -q '^real' /tmp/vfy.log; do sleep 15; done
for j in 25 17; do
  jh=/usr/lib/jvm/temurin-25-jdk-amd64; [ $j = 17 ] && jh=/usr/lib/jvm/java-17-openjdk-amd64
  for v in old new new old old new; do
    dir=/tmp/wtNew; [ $v = old ] && dir=/tmp/wtOld
    n=1; while [ -e /tmp/st5/$v-jdk$j-$n ]; do n=$((n+1)); done
    (cd $dir && JAVA_HOME=$jh PATH=$jh/bin:$PATH bin/spindle-bench --only io-starvation --pools spindle-jec --threads 2 --runs 10 --warmup 1 --warmup-ms 0 --out /tmp/st5/$v-jdk$j-$n > /dev/null 2>&1)
    python3 -c "
import json
d=json.load(open('/tmp/st5/$v-jdk$j-$n/results.json'))
r=[r for r in d['results'] if r['workload']=='io-starvation'][0]
print('$(date +%T) $v jdk$j #$n', 'median %.2f min %.2f max %.2f ms' % (r['median'], r['min'], r['max']))
"
  done
done
echo done
