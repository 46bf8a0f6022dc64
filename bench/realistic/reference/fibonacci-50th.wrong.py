a, b = 1, 1
# wrong: one step too many
for _ in range(49):
    a, b = b, a + b
print("The 50th Fibonacci number is", b)
