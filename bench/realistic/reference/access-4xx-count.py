import re

pattern = re.compile(r'^\S+ \S+ \S+ \[[^\]]+\] "[^"]*" (\d{3}) (\d+|-)')
count = 0
with open("access.log") as f:
    for line in f:
        m = pattern.match(line)
        if m and m.group(1).startswith("4"):
            count += 1
print(f"4xx responses: {count}")
