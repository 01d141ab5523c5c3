import json,sys,glob,statistics as st
J=sys.argv[1]
def load(v):
    runs=[]
    for f in sorted(glob.glob(f'/tmp/ab3/jdk{J}-{v}[0-9]/results.json')):
        d={}
        for r in json.load(open(f))['results']:
            d[(r['workload'],r['metric'],r['pool'])]=r['median']
        runs.append(d)
    return runs
A=load('A'); C=load('C')
print(f'JDK {J}: JEC ÷ platform threads (÷ Netty) per run; A = 2fb337c, C = the change; runs: A {len(A)}, C {len(C)}')
for w in ['echo-1conn','echo-16conn','echo-64conn','echo-256conn']:
    for m in ['cpu_us_per_request','requests_per_s']:
        out=[]
        for name,runs in (('A',A),('C',C)):
            rp=[r[(w,m,'spindle-jec')]/r[(w,m,'platform-threads')] for r in runs if (w,m,'spindle-jec') in r]
            rn=[r[(w,m,'spindle-jec')]/r[(w,m,'netty')] for r in runs if (w,m,'spindle-jec') in r]
            raw=[r[(w,m,'spindle-jec')] for r in runs if (w,m,'spindle-jec') in r]
            if rp: out.append(f"{name}: {', '.join('%.2f'%x for x in rp)} (÷N {', '.join('%.2f'%x for x in rn)}) raw {', '.join('%.3g'%x for x in raw)}")
        print(f'{w:14s} {m:20s} '+' | '.join(out))
