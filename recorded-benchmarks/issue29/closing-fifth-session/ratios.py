#!/usr/bin/env python3
"""Issue 29's target ratios (JOBS_EVENT_COUNTER) per run: servers sharing the runner's JVM (S) or one JVM per server
(P, --jvm-per-pool). 'best' = the best of platform threads, Netty and (JDK 25) virtual threads, per metric."""
import json, glob, os, sys
base = sys.argv[1] if len(sys.argv) > 1 else '.'
def load(p):
    d = json.load(open(os.path.join(p, 'results.json')))
    return {(r['workload'], r['pool'], r['metric']): r['median'] for r in d['results']}
rows = []
for p in sorted(glob.glob(f'{base}/[SP]-jdk*-*')):
    if not os.path.isdir(p) or not os.path.exists(os.path.join(p, 'results.json')):
        continue
    name = os.path.basename(p); j = int(name.split('-')[1][3:])
    R = load(p)
    best = ['platform-threads', 'netty'] + (['virtual-threads'] if j == 25 else [])
    g = lambda w, pool, m: R[(w, pool, m)]
    out = [name]
    for w in ('echo-16conn', 'echo-64conn'):
        out.append(g(w, 'spindle-jec', 'cpu_us_per_request') / min(g(w, b, 'cpu_us_per_request') for b in best))
        out.append(g(w, 'spindle-jec', 'requests_per_s') / max(g(w, b, 'requests_per_s') for b in best))
    w = 'echo-256conn'
    out.append(g(w, 'spindle-jec', 'requests_per_s') / g(w, 'virtual-threads' if j == 25 else 'netty', 'requests_per_s'))
    for w in ('echo-sparse-1ms', 'echo-sparse-10ms'):
        out.append(g(w, 'spindle-jec', 'cpu_us_per_request') / g(w, 'platform-threads', 'cpu_us_per_request'))
    for w in ('echo-sparse-1ms', 'echo-sparse-10ms'):
        out.append(g(w, 'spindle-jec', 'latency_p50_us') / g(w, 'platform-threads', 'latency_p50_us'))
        out.append(g(w, 'spindle-jec', 'latency_p99_us') / g(w, 'platform-threads', 'latency_p99_us'))
    out.append(g('echo-idle-50conn', 'spindle-jec', 'idle_worker_cpu_ms'))
    out.append(g('io-starvation', 'spindle-jec', 'delay_ms'))
    for w in ('echo-16conn', 'echo-64conn', 'echo-256conn'):
        out.append(g(w, 'spindle-jec', 'cpu_us_per_request') / g(w, 'platform-threads', 'cpu_us_per_request'))
        out.append(g(w, 'spindle-jec', 'requests_per_s') / g(w, 'platform-threads', 'requests_per_s'))
    rows.append(out)
hdr = ['run', '16c CPU÷best', '16c req÷best', '64c CPU÷best', '64c req÷best', '256c req÷virt (17: ÷Netty)',
       '1ms CPU÷plat', '10ms CPU÷plat', '1ms p50÷plat', '1ms p99÷plat', '10ms p50÷plat', '10ms p99÷plat',
       'idle worker ms', 'io-starv ms', '16c CPU÷plat', '16c req÷plat', '64c CPU÷plat', '64c req÷plat',
       '256c CPU÷plat', '256c req÷plat']
print('| ' + ' | '.join(hdr) + ' |')
print('|' + '---|' * len(hdr))
for r in rows:
    print('| ' + r[0] + ' | ' + ' | '.join(f'{x:.2f}' for x in r[1:]) + ' |')
