import csv
from collections import Counter
from datetime import datetime, timezone

per_day = Counter()
with open("signups.csv", newline="") as f:
    for row in csv.DictReader(f):
        at = datetime.fromisoformat(row["signed_up_at"].replace("Z", "+00:00"))
        per_day[at.astimezone(timezone.utc).date().isoformat()] += 1
for day in sorted(per_day):
    print(f"{day}: {per_day[day]}")
