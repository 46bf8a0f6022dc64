from datetime import date
# wrong: the difference, not counting both ends
print((date(2024, 3, 1) - date(2024, 1, 15)).days, "days")
