from datetime import date
print("ISO week:", date(2024, 12, 30).isocalendar()[1])
