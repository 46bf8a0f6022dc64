from collections import Counter

# ranks by number of requests, not bytes
hits = Counter()
with open("access.log") as f:
    for line in f:
        hits[line.split()[0]] += 1
for ip, n in hits.most_common(3):
    print(f"{ip}  {n} bytes")
