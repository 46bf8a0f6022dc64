from datetime import date
# wrong: weekday() is 0 for Monday, not Sunday
names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
print(names[date(2000, 2, 29).weekday()])
