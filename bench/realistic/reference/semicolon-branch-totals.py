import csv
from collections import defaultdict

totals = defaultdict(float)
with open("umsatz.csv", newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f, delimiter=";"):
        totals[row["Filiale"]] += float(row["Betrag"].replace(".", "").replace(",", "."))
for branch, total in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"{branch}: {total:.2f}")
