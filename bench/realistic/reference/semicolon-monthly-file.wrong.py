import calendar
import csv
from collections import defaultdict

# rows sorted by month name, not by calendar order
totals = defaultdict(float)
with open("umsatz.csv", newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f, delimiter=";"):
        month = calendar.month_name[int(row["Datum"].split(".")[1])]
        totals[month] += float(row["Betrag"].replace(".", "").replace(",", "."))
with open("monthly_totals.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["month", "total"])
    for month in sorted(totals):
        w.writerow([month, f"{totals[month]:.2f}"])
print("wrote monthly_totals.csv")
