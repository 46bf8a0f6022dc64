from datetime import date
for d in range(1, 31):
    if date(2024, 9, d).weekday() == 0:
        print(date(2024, 9, d).isoformat())
