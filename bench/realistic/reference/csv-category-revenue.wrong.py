import csv
from collections import defaultdict

# the product of the sums instead of the sum of the products
prices = defaultdict(float)
quantities = defaultdict(int)
with open("sales_lines.csv", newline="") as f:
    for row in csv.DictReader(f):
        prices[row["category"]] += float(row["unit_price"])
        quantities[row["category"]] += int(row["quantity"])
totals = {c: prices[c] * quantities[c] for c in prices}
for category, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{category}: {total:.2f}")
