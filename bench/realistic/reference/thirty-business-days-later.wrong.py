from datetime import date, timedelta
# wrong: the signing day counts as day 1
d, left = date(2024, 12, 20), 29
while left:
    d += timedelta(days=1)
    if d.weekday() < 5:
        left -= 1
print("Deadline:", d.isoformat())
