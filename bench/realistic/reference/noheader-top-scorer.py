import csv

with open("scores.csv", newline="") as f:
    rows = [(name, int(points)) for name, points in csv.reader(f)]
name, points = max(rows, key=lambda r: r[1])
print(f"{name} with {points}")
