import csv
from collections import defaultdict

totals = defaultdict(float)
with open("sales_lines.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[row["category"]] += float(row["unit_price"]) * int(row["quantity"])
for category, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{category}: {total:.2f}")
