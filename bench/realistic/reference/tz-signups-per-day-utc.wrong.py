import csv
from collections import Counter

# the date as written (local), not in UTC
per_day = Counter()
with open("signups.csv", newline="") as f:
    for row in csv.DictReader(f):
        per_day[row["signed_up_at"][:10]] += 1
for day in sorted(per_day):
    print(f"{day}: {per_day[day]}")
