import csv
from collections import defaultdict

with open("customers.csv", newline="") as f:
    segment = {row["customer_id"]: row["segment"] for row in csv.DictReader(f)}
amounts = defaultdict(list)
with open("shop_orders.csv", newline="") as f:
    for row in csv.DictReader(f):
        amounts[segment[row["customer_id"]]].append(float(row["amount"]))
for s in sorted(amounts):
    print(f"{s}: {sum(amounts[s]) / len(amounts[s]):.2f}")
