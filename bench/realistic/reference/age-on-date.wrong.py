from datetime import date
born, on = date(1990, 8, 31), date(2024, 8, 30)
# wrong: year difference only
print("Age:", on.year - born.year)
