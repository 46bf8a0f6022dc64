import json
from collections import Counter

# counts orders, not items
with open("orders.json") as f:
    orders = json.load(f)["orders"]
count = Counter(order["customer"]["country"] for order in orders)
country, n = count.most_common(1)[0]
print(f"{country}: {n} items")
