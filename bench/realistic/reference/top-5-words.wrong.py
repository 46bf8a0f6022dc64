from collections import Counter
# wrong: punctuation and case are kept
words = open("memo.txt").read().split()
for word, n in Counter(words).most_common(5):
    print(word, n)
