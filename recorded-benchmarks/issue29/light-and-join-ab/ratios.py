#!/usr/bin/env python3
"""A/B of light-load and join rows: each Spindle pool's median divided by fjp's median of the same run, per series.
Prints, per JDK, workload/metric/threads/pool: A ratios (one per round), C ratios, and the medians of each."""
import json, glob, os, statistics, sys
base = sys.argv[1] if len(sys.argv) > 1 else '.'
METRICS = {'cpu_percent', 'cpu_per_useful', 'latency_p50_us', 'latency_p99_us', 'time_ms'}
def load(path):
    d = json.load(open(os.path.join(path, 'results.json')))
    return {(r['workload'], r['metric'], r['threads'], r['pool']): r['median'] for r in d['results']}
for jdk in ('25', '17'):
    series = {}
    for v in ('A', 'C'):
        series[v] = [load(p) for p in sorted(glob.glob(f'{base}/{v}-jdk{jdk}-r*')) if os.path.exists(os.path.join(p, 'results.json'))]
    if not series['A'] or not series['C']:
        continue
    print(f'## JDK {jdk}: A = 2fb337c, C = 24d8567; each pool / fjp of the same run (A runs | C runs), medians')
    keys = sorted({k for k in series['A'][0] if k[3].startswith('spindle') and k[1] in METRICS},
                  key=lambda k: (list(series['A'][0]).index(k)))
    print('| workload | metric | thr | pool | A | C | A median | C median |')
    print('|---|---|--:|---|---|---|--:|--:|')
    for k in keys:
        fk = (k[0], k[1], k[2], 'fjp')
        row = {}
        for v in ('A', 'C'):
            row[v] = [s[k] / s[fk] for s in series[v] if k in s and fk in s and s[fk]]
        if not row['A'] or not row['C']:
            continue
        f = lambda xs: ', '.join(f'{x:.2f}' for x in xs)
        print(f'| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {f(row["A"])} | {f(row["C"])} | '
              f'{statistics.median(row["A"]):.2f} | {statistics.median(row["C"]):.2f} |')
    print()
