from collections import Counter
import re

pattern = re.compile(r'^(\S+) \S+ \S+ \[[^\]]+\] "[^"]*" \d{3} (\d+|-)')
sent = Counter()
with open("access.log") as f:
    for line in f:
        m = pattern.match(line)
        if m:
            sent[m.group(1)] += 0 if m.group(2) == "-" else int(m.group(2))
for ip, n in sent.most_common(3):
    print(f"{ip}  {n} bytes")
