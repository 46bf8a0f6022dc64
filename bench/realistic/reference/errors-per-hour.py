from collections import Counter
counts = Counter()
for line in open("app.log"):
    date, time, level, *rest = line.split()
    if level == "ERROR":
        counts[time[:2]] += 1
for hour in sorted(counts):
    print(f"{hour}:00 - {counts[hour]}")
