import re
from collections import Counter
words = re.findall(r"[a-z]+", open("memo.txt").read().lower())
for word, n in Counter(words).most_common(5):
    print(word, n)
