import json, sys
BASE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/close"
PREFIX = sys.argv[2] if len(sys.argv) > 2 else ""
def load(j):
    d = json.load(open(f'{BASE}/{PREFIX}jdk{j}/results.json'))
    return {(r['workload'], r['pool'], r['metric']): r for r in d['results']}
for j in (25, 17):
    R = load(j)
    best = ['platform-threads', 'netty'] + (['virtual-threads'] if j == 25 else [])
    print(f'JDK {j}')
    for w in ['echo-16conn', 'echo-64conn', 'echo-256conn']:
        cpu = R[(w, 'spindle-jec', 'cpu_us_per_request')]['median']
        rps = R[(w, 'spindle-jec', 'requests_per_s')]['median']
        bc = min(R[(w, p, 'cpu_us_per_request')]['median'] for p in best)
        br = max(R[(w, p, 'requests_per_s')]['median'] for p in best)
        pc = R[(w, 'platform-threads', 'cpu_us_per_request')]['median']
        pr = R[(w, 'platform-threads', 'requests_per_s')]['median']
        line = f'  {w}: CPU/best {cpu/bc:.2f} req/best {rps/br:.2f} | CPU/platform {cpu/pc:.2f} req/platform {rps/pr:.2f}'
        if j == 25:
            line += f" | req/virtual {rps/R[(w,'virtual-threads','requests_per_s')]['median']:.2f}"
        print(line)
    for w in ['echo-sparse-1ms', 'echo-sparse-10ms']:
        g = lambda p, m: R[(w, p, m)]['median']
        print(f"  {w}: CPU/platform {g('spindle-jec','cpu_us_per_request')/g('platform-threads','cpu_us_per_request'):.2f}"
              f" p50/platform {g('spindle-jec','latency_p50_us')/g('platform-threads','latency_p50_us'):.2f}"
              f" p99/platform {g('spindle-jec','latency_p99_us')/g('platform-threads','latency_p99_us'):.2f}")
    print(f"  idle worker CPU {R[('echo-idle-50conn','spindle-jec','idle_worker_cpu_ms')]['median']}, io-starvation {R[('io-starvation','spindle-jec','delay_ms')]['median']:.2f} ms ({R[('io-starvation','spindle-jec','delay_ms')]['min']:.2f}-{R[('io-starvation','spindle-jec','delay_ms')]['max']:.2f})")
