words = "Level, rotor, Python, Racecar, noon, banana, Stats, refer, civic, data, Madam, kayak, apple".split(", ")
for w in words:
    if w.lower() == w.lower()[::-1]:
        print(w)
