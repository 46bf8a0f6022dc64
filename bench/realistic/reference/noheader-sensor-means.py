import csv
from collections import defaultdict

values = defaultdict(list)
with open("readings.csv", newline="") as f:
    for sensor, _timestamp, celsius in csv.reader(f):
        values[sensor].append(float(celsius))
for sensor in sorted(values):
    print(f"{sensor}: {sum(values[sensor]) / len(values[sensor]):.2f}")
