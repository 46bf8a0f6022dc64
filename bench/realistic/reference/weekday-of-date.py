from datetime import date
print(date(2000, 2, 29).strftime("%A"))
