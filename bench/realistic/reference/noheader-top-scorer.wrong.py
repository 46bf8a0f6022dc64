import csv

# the first row taken as a header
with open("scores.csv", newline="") as f:
    reader = csv.reader(f)
    next(reader)
    rows = [(name, int(points)) for name, points in reader]
name, points = max(rows, key=lambda r: r[1])
print(f"{name} with {points}")
