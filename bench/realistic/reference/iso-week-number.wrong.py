from datetime import date
# wrong: %W is not the ISO week
print("ISO week:", int(date(2024, 12, 30).strftime("%W")))
