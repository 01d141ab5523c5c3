#!/bin/bash
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
for round in 1 2; do
  for wd in 2000 0; do
    ECHO_PROBE_JAVA_OPTS="-Dspindle.io.watchdogMicros=$wd" bin/echo-probe spindle-jec 2 1 paced 1000 3000 2>&1 | sed "s/^/wd=$wd 1ms: /"
    ECHO_PROBE_JAVA_OPTS="-Dspindle.io.watchdogMicros=$wd" bin/echo-probe spindle-jec 2 1 paced 10000 300 2>&1 | sed "s/^/wd=$wd 10ms: /"
  done
  bin/echo-probe platform-threads 2 1 paced 1000 3000 2>&1 | sed "s/^/platform 1ms: /"
  bin/echo-probe platform-threads 2 1 paced 10000 300 2>&1 | sed "s/^/platform 10ms: /"
done
