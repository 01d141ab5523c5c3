#!/bin/bash
# issue 29, third session: the target rows at this session's head, both JDKs
cd /work/main
ROWS=echo-16conn,echo-64conn,echo-256conn,echo-sparse-1ms,echo-sparse-10ms,echo-idle-50conn,io-starvation
for J in 25 17; do
  if [ $J = 25 ]; then export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; P=spindle-jec,platform-threads,virtual-threads,netty
  else unset JAVA_HOME; P=spindle-jec,platform-threads,netty; fi
  date
  bin/spindle-bench --only $ROWS --pools $P --threads 2 --runs 3 --warmup 1 --warmup-ms 0 --out /tmp/close/C-jdk$J > /tmp/close/C-jdk$J.log 2>&1
done
date
echo done
