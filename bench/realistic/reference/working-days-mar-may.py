from datetime import date, timedelta
d, n = date(2024, 3, 1), 0
while d <= date(2024, 5, 31):
    n += d.weekday() < 5
    d += timedelta(days=1)
print("Working days:", n)
