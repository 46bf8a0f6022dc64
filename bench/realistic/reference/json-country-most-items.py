import json
from collections import Counter

with open("orders.json") as f:
    orders = json.load(f)["orders"]
items = Counter()
for order in orders:
    for line in order["lines"]:
        items[order["customer"]["country"]] += line["qty"]
country, n = items.most_common(1)[0]
print(f"{country}: {n} items")
