old, new = 84250, 97130
# wrong: relative to the new value
print(f"Increase: {(new - old) / new * 100:.2f}%")
