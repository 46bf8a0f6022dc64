import shlex

rows = []
with open("service.log") as f:
    for line in f:
        rows.append(dict(part.split("=", 1) for part in shlex.split(line)))
for r in sorted(rows, key=lambda r: int(r["dur_ms"]), reverse=True)[:3]:
    print(f"{r['ts']}  {r['svc']}  {r['dur_ms']} ms")
