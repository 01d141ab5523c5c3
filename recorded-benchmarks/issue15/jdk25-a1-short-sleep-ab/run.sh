#!/bin/bash
# A/B of A1's short-sleep rule (core-short.jar): s0 = every sleep halves (the committed rule), s50 / s200 = a sleep
# shorter than 50 / 200 us doubles instead; fixed = SLEEPY/HINT at their seeds' fixed counts (min rounds 32).
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
D=$(cat /tmp/ab/deps.txt)
P=spindle-jec,spindle-sleepy,spindle-hint,platform-threads
W=echo-16conn,echo-sparse-1ms
for i in 1 2; do
  for v in s50 s0 fixed s200; do
    case $v in
      s0) opts="" ;;
      s50) opts="-Dspindle.idle.shortSleepMicros=50" ;;
      s200) opts="-Dspindle.idle.shortSleepMicros=200" ;;
      fixed) opts="-Dspindle.sleepy.minRoundsUntilSleepy=32 -Dspindle.hintPipe.minRoundsUntilSleepy=32" ;;
    esac
    $J $opts -cp "/tmp/ab/core-short.jar:/tmp/ab/bench.jar:$D" io.spindle.bench.Runner --only $W --pools $P --threads 2 --out /tmp/ab2/$v-$i > /tmp/ab2/$v-$i.log 2>&1
  done
done
echo done > /tmp/ab2/DONE
