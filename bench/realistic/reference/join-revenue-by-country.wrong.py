import csv
from collections import defaultdict

# joins every customer row: orders of repeated customers count twice
with open("customers.csv", newline="") as f:
    customers = list(csv.DictReader(f))
totals = defaultdict(float)
with open("shop_orders.csv", newline="") as f:
    for row in csv.DictReader(f):
        for c in customers:
            if c["customer_id"] == row["customer_id"]:
                totals[c["country"]] += float(row["amount"])
for c, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{c}: {total:.2f}")
