#!/bin/bash
# A/B: own-IO finds excluded from A1's reward (excl, the committed code) vs included (incl); plus the pre-A1 fixed
# counts for SLEEPY/HINT (excl jar + min rounds = 32) as the "before" reference.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
D=$(cat /tmp/ab/deps.txt)
P=spindle-jec,spindle-sleepy,spindle-hint,platform-threads
W=echo-16conn,echo-sparse-1ms
for i in 3 4; do
  for v in inclpoll fixed excl; do
    jar=/tmp/ab/core-$v.jar; opts=""
    if [[ $v == fixed ]]; then jar=/tmp/ab/core-excl.jar; opts="-Dspindle.sleepy.minRoundsUntilSleepy=32 -Dspindle.hintPipe.minRoundsUntilSleepy=32"; fi
    $J $opts -cp "$jar:/tmp/ab/bench.jar:$D" io.spindle.bench.Runner --only $W --pools $P --threads 2 --out /tmp/ab/$v-$i > /tmp/ab/$v-$i.log 2>&1
  done
done
echo done > /tmp/ab/DONE
