import csv
from datetime import datetime

# offsets ignored: local wall-clock times compared
with open("signups.csv", newline="") as f:
    times = [datetime.fromisoformat(row["signed_up_at"][:19]) for row in csv.DictReader(f)]
print(f"{(max(times) - min(times)).total_seconds() / 3600:.1f} hours")
