old, new = 84250, 97130
print(f"Increase: {(new - old) / old * 100:.2f}%")
