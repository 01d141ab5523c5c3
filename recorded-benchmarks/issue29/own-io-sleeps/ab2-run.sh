#!/bin/bash
# A = HEAD 2fb337c (/tmp/base), C = the change (/work/main); interleaved A C A C, JDK given by $1
J=$1
if [ "$J" = 25 ]; then export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; fi
ROWS=echo-1conn,echo-16conn,echo-64conn,echo-sparse-1ms,echo-sparse-10ms,echo-sparse-16conn-1ms,echo-compute,echo-mux-16conn
for round in 1 2; do
 for v in A C; do
  if [ $v = A ]; then d=/tmp/base; else d=/work/main; fi
  (cd $d && bin/spindle-bench --only $ROWS --pools spindle-jec,spindle-sleepy,spindle-hint,platform-threads --threads 2 --runs 3 --warmup 1 --warmup-ms 0 --out /tmp/ab2/jdk$J-$v$round > /tmp/ab2/jdk$J-$v$round.log 2>&1)
 done
done
echo done $J
