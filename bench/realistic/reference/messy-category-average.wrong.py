import csv
from collections import defaultdict

# n/a counted as 0
amounts = defaultdict(list)
with open("expenses.csv", newline="") as f:
    for row in csv.DictReader(f):
        cell = row["amount"].strip()
        amounts[row["category"]].append(0.0 if cell.lower() == "n/a" else float(cell.replace("$", "").replace(",", "")))
for category in sorted(amounts):
    print(f"{category}: {sum(amounts[category]) / len(amounts[category]):.2f}")
