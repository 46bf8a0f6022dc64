import re
from collections import Counter

pattern = re.compile(r'\[\d{2}/\w{3}/\d{4}:(\d{2}):\d{2}:\d{2} [^\]]+\] "\S+ (\S+)')
per_hour = Counter()
with open("access.log") as f:
    for line in f:
        m = pattern.search(line)
        if m and m.group(2).startswith("/api/"):
            per_hour[int(m.group(1))] += 1
for hour in sorted(per_hour):
    print(f"{hour:02d}:00  {per_hour[hour]}")
