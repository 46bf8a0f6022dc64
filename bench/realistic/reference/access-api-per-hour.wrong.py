import re
from collections import Counter

# "/api" anywhere on the line: also /docs/api-guide and referers
per_hour = Counter()
with open("access.log") as f:
    for line in f:
        if "/api" in line:
            hour = int(re.search(r":(\d{2}):\d{2}:\d{2} ", line).group(1))
            per_hour[hour] += 1
for hour in sorted(per_hour):
    print(f"{hour:02d}:00  {per_hour[hour]}")
