#!/bin/bash
# Watchdog hint A/B with bin/echo-probe: old = /work/main (24d8567), new = /tmp/wtW (the claim-while-awake hint).
J25=/usr/lib/jvm/temurin-25-jdk-amd64
J17=/usr/lib/jvm/java-17-openjdk-amd64
probe() { # tree jdk label args...
  local tree=$1 jh=$2 label=$3; shift 3
  echo "=== $label $(date +%T)"
  (cd $tree && JAVA_HOME=$jh timeout 300 bin/echo-probe "$@" 2>&1 | grep -E "requests in|bench-spindle|io-wa|^  server")
}
for round in 1 2 3; do
  for jdk in 25 17; do
    jh=$J25; [ $jdk = 17 ] && jh=$J17
    if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    for v in $order; do
      tree=/work/main; [ $v = new ] && tree=/tmp/wtW
      probe $tree $jh "$v jdk$jdk r$round sparse-1ms" spindle-jec 2 1 paced 1000 3000
      probe $tree $jh "$v jdk$jdk r$round sparse-10ms" spindle-jec 2 1 paced 10000 300
      probe $tree $jh "$v jdk$jdk r$round 16conn" spindle-jec 2 16 pingpong 3000
      probe $tree $jh "$v jdk$jdk r$round 16conn-1ms" spindle-jec 2 16 paced 1000 2000
    done
  done
done
