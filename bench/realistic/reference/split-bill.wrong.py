share = 247.80 * 1.18 / 6
# wrong: rounded to nearest, not up
print(f"Each person pays ${share:.2f}")
