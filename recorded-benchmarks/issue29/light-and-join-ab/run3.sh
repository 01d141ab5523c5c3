#!/bin/bash
# Third round of the join rows only (A = 2fb337c in /tmp/wtA, C = 24d8567's runtime: /tmp/wtC).
rows=fib-naive,fib-cutoff,tree-sum,join-depth-20
pools=spindle-jec,spindle-sleepy,spindle-hint,fjp,sequential
J25=/usr/lib/jvm/temurin-25-jdk-amd64
J17=/usr/lib/jvm/java-17-openjdk-amd64
while [ -e /tmp/ab/hold3 ]; do sleep 5; done
for x in A:17 C:17 C:25 A:25; do
  v=${x%%:*}; j=${x##*:}
  if [ $v = A ]; then dir=/tmp/wtA; else dir=/tmp/wtC; fi
  if [ $j = 25 ]; then jh=$J25; else jh=$J17; fi
  echo "$(date +%T) start $v jdk$j round 3"
  (cd $dir && JAVA_HOME=$jh PATH=$jh/bin:$PATH bin/spindle-bench --only $rows --pools $pools --threads 2 --runs 3 --warmup 2 --warmup-ms 1000 --out /tmp/ab/$v-jdk$j-r3 > /tmp/ab/$v-jdk$j-r3.txt 2>/tmp/ab/$v-jdk$j-r3.err)
  echo "$(date +%T) end $v jdk$j round 3 rc=$?"
done
