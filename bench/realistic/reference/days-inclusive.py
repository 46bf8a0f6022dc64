from datetime import date
print((date(2024, 3, 1) - date(2024, 1, 15)).days + 1, "days")
