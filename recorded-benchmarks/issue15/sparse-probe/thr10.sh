#!/bin/bash
# thr.sh KIND [jvm flags]: per-thread CPU (ticks of 10 ms) over 5000 requests at 1 ms, after 10000 of warm-up
kind=$1; shift
port=$((20000 + RANDOM % 10000))
java "$@" -cp /work/main/spindle-core/target/classes:/tmp/sp Sparse server $kind $port & spid=$!
sleep 1.5
java -cp /tmp/sp:/work/main/spindle-core/target/classes Sparse client $port 50000 0 > /dev/null; java -cp /tmp/sp:/work/main/spindle-core/target/classes Sparse client $port 5000 1000 > /dev/null
snap() { for t in /proc/$spid/task/*; do echo "$(basename $t) $(cat $t/comm | tr ' ' _) $(awk '{print int($1/1000)}' $t/schedstat) $(grep -h ctxt $t/status | awk '{s+=$2} END {print s}')"; done | sort; }
snap > /tmp/sp/s0; t0=$(awk '{print $14+$15}' /proc/$spid/stat)
java -cp /tmp/sp:/work/main/spindle-core/target/classes Sparse client $port 500 10000
snap > /tmp/sp/s1; t1=$(awk '{print $14+$15}' /proc/$spid/stat)
echo "$kind $*: process CPU per request $(( (t1 - t0) * 10000 / 500 )) us"
join /tmp/sp/s0 /tmp/sp/s1 | awk '{d=$6-$3; c=$7-$4; if (d>0 || c>100) printf "   %-24s cpu %4d us/req  switches %.2f/req\n", $2, d/500, c/500}'
kill $spid
