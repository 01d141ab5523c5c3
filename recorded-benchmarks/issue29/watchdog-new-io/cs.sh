#!/bin/bash
# usage: cs.sh TREE JAVA_HOME PERIOD_US REQUESTS : watchdog thread's voluntary context switches per request in the paced phase
tree=$1; jh=$2; period=$3; n=$4
( cd $tree && JAVA_HOME=$jh bin/echo-probe spindle-jec 2 1 paced $period $n > /tmp/wd/cs-out.txt 2>&1 ) &
bg=$!
: > /tmp/wd/cs-samples.txt
while kill -0 $bg 2>/dev/null; do
  for t in /proc/[0-9]*/task/*; do
    c=$(cat $t/comm 2>/dev/null); if [[ "$c" == spindle-*-io-wa ]]; then
      echo "$(date +%s.%N) $(grep voluntary_ctxt_switches $t/status | head -1 | awk '{print $2}')" >> /tmp/wd/cs-samples.txt
    fi
  done 2>/dev/null
  sleep 0.1
done
grep "requests in" /tmp/wd/cs-out.txt
python3 - "$period" <<'PY'
import sys
period=float(sys.argv[1])
rows=[l.split() for l in open('/tmp/wd/cs-samples.txt')]
rows=[(float(a),int(b)) for a,b,*_ in rows if b.isdigit()]
end=rows[-1][0]
# the paced phase ends when the probe stops; take the window [end-2.6, end-0.6]
w=[r for r in rows if end-2.6 <= r[0] <= end-0.6]
dt=w[-1][0]-w[0][0]; dcs=w[-1][1]-w[0][1]
print(f"watchdog voluntary switches: {dcs} in {dt:.2f} s = {dcs/dt:.0f}/s = {dcs/(dt*1e6/period):.2f} per request")
PY
