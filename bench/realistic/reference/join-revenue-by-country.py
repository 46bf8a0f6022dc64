import csv
from collections import defaultdict

with open("customers.csv", newline="") as f:
    country = {row["customer_id"]: row["country"] for row in csv.DictReader(f)}
totals = defaultdict(float)
with open("shop_orders.csv", newline="") as f:
    for row in csv.DictReader(f):
        totals[country[row["customer_id"]]] += float(row["amount"])
for c, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{c}: {total:.2f}")
