import json, sys
def fmt(x):
    if x >= 100000: return f"{x/1000:.0f}k"
    if x >= 10000: return f"{x/1000:.0f}k"
    if x >= 1000: return f"{x/1000:.1f}k"
    if x >= 100: return f"{x:.0f}"
    if x >= 10: return f"{x:.1f}"
    return f"{x:.2f}"
for j in (25, 17):
    d = json.load(open((sys.argv[1] if len(sys.argv) > 1 else '.') + f'/C-2bc1ab8-jdk{j}/results.json'))
    R = {(r['workload'], r['pool'], r['metric']): r for r in d['results']}
    pools = ['spindle-jec', 'platform-threads'] + (['virtual-threads'] if j == 25 else []) + ['netty']
    print(f"\n**JDK {j}** ({d['jdk']})\n")
    print('| workload | metric | ' + ' | '.join(pools) + ' |')
    print('|---|---|' + '--:|' * len(pools))
    rows = [('echo-16conn', ['requests_per_s', 'cpu_us_per_request']), ('echo-64conn', ['requests_per_s', 'cpu_us_per_request']),
            ('echo-256conn', ['requests_per_s', 'cpu_us_per_request', 'latency_p99_us']),
            ('echo-sparse-1ms', ['cpu_us_per_request', 'latency_p50_us', 'latency_p99_us']),
            ('echo-sparse-10ms', ['cpu_us_per_request', 'latency_p50_us', 'latency_p99_us']),
            ('echo-idle-50conn', ['idle_cpu_ms', 'idle_worker_cpu_ms']), ('io-starvation', ['delay_ms'])]
    for w, ms in rows:
        for i, m in enumerate(ms):
            cells = []
            for p in pools:
                r = R.get((w, p, m))
                cells.append('n/a' if r is None else f"{fmt(r['median'])} ({fmt(r['min'])}–{fmt(r['max'])})")
            print(f"| {w if i == 0 else ''} | {m} | " + ' | '.join(cells) + ' |')
