words = "Level, rotor, Python, Racecar, noon, banana, Stats, refer, civic, data, Madam, kayak, apple".split(", ")
# wrong: case-sensitive
for w in words:
    if w == w[::-1]:
        print(w)
