#!/bin/bash
# Interleaved A/B of light-load and join rows: A = 2fb337c (before issue 29's runtime changes), C = HEAD.
rows=noop-1ms,noop-10ms,sparse,fib-naive,fib-cutoff,tree-sum,join-depth-20
pools=spindle-jec,spindle-sleepy,spindle-hint,fjp,sequential
J25=/usr/lib/jvm/temurin-25-jdk-amd64
J17=/usr/lib/jvm/java-17-openjdk-amd64
for round in 1 2; do
  if [ $round = 1 ]; then order="A:25 C:25 C:17 A:17"; else order="C:25 A:25 A:17 C:17"; fi
  for x in $order; do
    v=${x%%:*}; j=${x##*:}
    if [ $v = A ]; then dir=/tmp/wtA; else dir=/work/main; fi
    if [ $j = 25 ]; then jh=$J25; else jh=$J17; fi
    echo "$(date +%T) start $v jdk$j round $round"
    (cd $dir && JAVA_HOME=$jh PATH=$jh/bin:$PATH bin/spindle-bench --only $rows --pools $pools --threads 2 --runs 3 --warmup 2 --warmup-ms 1000 --out /tmp/ab/$v-jdk$j-r$round > /tmp/ab/$v-jdk$j-r$round.txt 2>/tmp/ab/$v-jdk$j-r$round.err)
    echo "$(date +%T) end $v jdk$j round $round rc=$?"
  done
done
