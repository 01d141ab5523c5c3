#!/bin/bash
J=$1
if [ "$J" = 25 ]; then export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; fi
ROWS=echo-1conn,echo-16conn,echo-64conn,echo-256conn
for round in 1 2 3; do
 for v in C A; do
  if [ $v = A ]; then d=/tmp/base; else d=/work/main; fi
  (cd $d && bin/spindle-bench --only $ROWS --pools spindle-jec,platform-threads,netty --threads 2 --runs 3 --warmup 1 --warmup-ms 0 --out /tmp/ab3/jdk$J-$v$round > /tmp/ab3/jdk$J-$v$round.log 2>&1)
 done
done
echo done $J
