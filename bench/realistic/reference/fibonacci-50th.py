a, b = 1, 1
for _ in range(48):
    a, b = b, a + b
print("The 50th Fibonacci number is", b)
