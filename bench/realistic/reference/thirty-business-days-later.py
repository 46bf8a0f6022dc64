from datetime import date, timedelta
d, left = date(2024, 12, 20), 30
while left:
    d += timedelta(days=1)
    if d.weekday() < 5:
        left -= 1
print("Deadline:", d.isoformat())
