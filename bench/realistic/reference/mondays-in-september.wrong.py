from datetime import date
# wrong: range end misses the 30th
for d in range(1, 30):
    if date(2024, 9, d).weekday() == 0:
        print(date(2024, 9, d).isoformat())
