#!/bin/bash
# Issue 29's target rows at the session's head, servers in the runner's JVM (S) and one JVM per server (P).
rows=echo-16conn,echo-64conn,echo-256conn,echo-sparse-1ms,echo-sparse-10ms,echo-idle-50conn,io-starvation
J25=/usr/lib/jvm/temurin-25-jdk-amd64
J17=/usr/lib/jvm/java-17-openjdk-amd64
while ! grep -q '^done' /tmp/st5/starv.log 2>/dev/null; do sleep 15; done
for x in S:25 P:25 P:17 S:17 P:25 S:25; do
  v=${x%%:*}; j=${x##*:}
  if [ $j = 25 ]; then jh=$J25; pools=spindle-jec,platform-threads,virtual-threads,netty; else jh=$J17; pools=spindle-jec,platform-threads,netty; fi
  extra=""; [ $v = P ] && extra=--jvm-per-pool
  n=1; while [ -e /tmp/cl/$v-jdk$j-$n ]; do n=$((n+1)); done
  echo "$(date +%T) start $v jdk$j #$n"
  (cd /tmp/wtNew && JAVA_HOME=$jh PATH=$jh/bin:$PATH bin/spindle-bench $extra --only $rows --pools $pools --threads 2 --runs 3 --warmup 1 --warmup-ms 0 --out /tmp/cl/$v-jdk$j-$n > /tmp/cl/$v-jdk$j-$n.txt 2>/tmp/cl/$v-jdk$j-$n.err)
  echo "$(date +%T) end $v jdk$j #$n rc=$?"
done
echo done
