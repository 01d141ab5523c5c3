#!/bin/bash
# Issue 29's target rows: servers sharing one runner JVM (S, as recorded so far) against one JVM per server (P).
rows=echo-16conn,echo-64conn,echo-256conn,echo-sparse-1ms,echo-sparse-10ms,echo-idle-50conn,io-starvation
J25=/usr/lib/jvm/temurin-25-jdk-amd64
J17=/usr/lib/jvm/java-17-openjdk-amd64
while pgrep -f /tmp/ab/run.sh >/dev/null || [ -e /tmp/pp/hold ]; do sleep 10; done
for x in S:25 P:25 P:17 S:17 P:25 S:25; do
  v=${x%%:*}; j=${x##*:}
  if [ $j = 25 ]; then jh=$J25; pools=spindle-jec,platform-threads,virtual-threads,netty; else jh=$J17; pools=spindle-jec,platform-threads,netty; fi
  extra=""; [ $v = P ] && extra=--jvm-per-pool
  n=1; while [ -e /tmp/pp/$v-jdk$j-$n ]; do n=$((n+1)); done
  echo "$(date +%T) start $v jdk$j #$n"
  (cd /work/main && JAVA_HOME=$jh PATH=$jh/bin:$PATH bin/spindle-bench $extra --only $rows --pools $pools --threads 2 --runs 3 --warmup 1 --warmup-ms 0 --out /tmp/pp/$v-jdk$j-$n > /tmp/pp/$v-jdk$j-$n.txt 2>/tmp/pp/$v-jdk$j-$n.err)
  echo "$(date +%T) end $v jdk$j #$n rc=$?"
done
