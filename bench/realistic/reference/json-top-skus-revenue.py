import json
from collections import defaultdict

with open("orders.json") as f:
    orders = json.load(f)["orders"]
revenue = defaultdict(float)
for order in orders:
    for line in order["lines"]:
        revenue[line["sku"]] += line["qty"] * line["price"]
for sku, total in sorted(revenue.items(), key=lambda kv: -kv[1])[:3]:
    print(f"{sku}: {total:.2f}")
