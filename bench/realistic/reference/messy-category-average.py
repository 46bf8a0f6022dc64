import csv
from collections import defaultdict

amounts = defaultdict(list)
with open("expenses.csv", newline="") as f:
    for row in csv.DictReader(f):
        cell = row["amount"].strip()
        if cell.lower() != "n/a":
            amounts[row["category"]].append(float(cell.replace("$", "").replace(",", "")))
for category in sorted(amounts):
    print(f"{category}: {sum(amounts[category]) / len(amounts[category]):.2f}")
