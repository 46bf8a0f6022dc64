import shlex
from collections import Counter

errors = Counter()
with open("service.log") as f:
    for line in f:
        fields = dict(part.split("=", 1) for part in shlex.split(line))
        if fields["level"] == "error":
            errors[fields["svc"]] += 1
for svc, n in sorted(errors.items()):
    print(f"{svc}: {n}")
