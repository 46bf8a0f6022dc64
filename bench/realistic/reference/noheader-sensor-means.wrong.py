import csv
from collections import defaultdict

# treats the first row as a header
values = defaultdict(list)
with open("readings.csv", newline="") as f:
    reader = csv.reader(f)
    next(reader)
    for sensor, _timestamp, celsius in reader:
        values[sensor].append(float(celsius))
for sensor in sorted(values):
    print(f"{sensor}: {sum(values[sensor]) / len(values[sensor]):.2f}")
