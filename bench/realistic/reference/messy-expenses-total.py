import csv

total = 0.0
with open("expenses.csv", newline="") as f:
    for row in csv.DictReader(f):
        cell = row["amount"].strip()
        if cell.lower() == "n/a":
            continue
        total += float(cell.replace("$", "").replace(",", ""))
print(f"Total: ${total:,.2f}")
