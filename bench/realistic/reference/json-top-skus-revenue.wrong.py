import json
from collections import defaultdict

# ranks by units sold, not revenue
with open("orders.json") as f:
    orders = json.load(f)["orders"]
units = defaultdict(int)
for order in orders:
    for line in order["lines"]:
        units[line["sku"]] += line["qty"]
for sku, total in sorted(units.items(), key=lambda kv: -kv[1])[:3]:
    print(f"{sku}: {total}")
