#!/usr/bin/env python3
"""Watchdog hint A/B with bin/echo-probe: per JDK and workload, old and new runs' server CPU per request, split into
workers and the IO watchdog, and their medians."""
import re, sys, statistics, collections
runs = collections.defaultdict(list)
label = None
cur = {}
for line in open(sys.argv[1]):
    m = re.match(r'=== (old|new) jdk(\d+) r(\d+) (\S+)', line)
    if m:
        label = (m.group(2), m.group(4), m.group(1)); cur = {}; runs[label].append(cur); continue
    m = re.match(r'\s+(bench-spindle-j|spindle--io-wa|server)\s+([\d.]+) µs/request', line)
    if m and label:
        cur[m.group(1)] = float(m.group(2))
    m = re.search(r'\(([\d.]+)/s\), p50 ([\d.]+) µs, p99 ([\d.]+) µs', line)
    if m and label:
        cur['rps'] = float(m.group(1)); cur['p50'] = float(m.group(2)); cur['p99'] = float(m.group(3))
print('| JDK | workload | version | workers µs/req | watchdog µs/req | server µs/req | req/s |')
print('|---|---|---|---|---|---|---|')
for (jdk, wl, v) in sorted(runs, key=lambda k: (-int(k[0]), k[1], k[2] != 'old')):
    rs = [r for r in runs[(jdk, wl, v)] if 'server' in r]
    def col(k, fmt='{:.1f}'):
        xs = [r[k] for r in rs]
        return ', '.join(fmt.format(x) for x in xs) + ' (med ' + fmt.format(statistics.median(xs)) + ')'
    print(f'| {jdk} | {wl} | {v} | {col("bench-spindle-j")} | {col("spindle--io-wa", "{:.2f}")} | {col("server")} | {col("rps", "{:.0f}")} |')
