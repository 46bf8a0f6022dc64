import csv
from collections import defaultdict

# the mean of the customers' totals, not of the orders
with open("customers.csv", newline="") as f:
    segment = {row["customer_id"]: row["segment"] for row in csv.DictReader(f)}
per_customer = defaultdict(float)
with open("shop_orders.csv", newline="") as f:
    for row in csv.DictReader(f):
        per_customer[row["customer_id"]] += float(row["amount"])
totals = defaultdict(list)
for customer, total in per_customer.items():
    totals[segment[customer]].append(total)
for s in sorted(totals):
    print(f"{s}: {sum(totals[s]) / len(totals[s]):.2f}")
