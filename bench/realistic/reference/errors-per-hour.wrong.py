from collections import Counter
counts = Counter()
for line in open("app.log"):
    # wrong: any line mentioning ERROR counts
    if "ERROR" in line:
        counts[line.split()[1][:2]] += 1
for hour in sorted(counts):
    print(f"{hour}:00 - {counts[hour]}")
