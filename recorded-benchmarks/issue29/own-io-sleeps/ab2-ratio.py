import json,sys,glob
J=sys.argv[1]; base=sys.argv[2] if len(sys.argv)>2 else 'platform-threads'
def load(v):
    runs=[]
    for f in sorted(glob.glob(f'/tmp/ab2/jdk{J}-{v}[0-9]/results.json')):
        d={}
        for r in json.load(open(f))['results']:
            d[(r['workload'],r['metric'],r['pool'])]=r['median']
        runs.append(d)
    return runs
A=load('A'); C=load('C')
keys=sorted({(w,m) for run in A for (w,m,p) in run})
pools=['spindle-jec','spindle-sleepy','spindle-hint']
print(f'÷ {base} of the same run; JDK {J}; A = before, C = after')
print('| workload | metric | '+' | '.join(f'{p.replace("spindle-","")} A / C' for p in pools)+' |')
print('|---|---|'+'--:|'*len(pools))
for w,m in keys:
    if m not in ('requests_per_s','cpu_us_per_request'): continue
    cells=[]
    for p in pools:
        def rr(runs): return ', '.join('%.2f'%(r[(w,m,p)]/r[(w,m,base)]) for r in runs if (w,m,p) in r and (w,m,base) in r)
        cells.append(rr(A)+' / '+rr(C))
    print(f'| {w} | {m} | '+' | '.join(cells)+' |')
