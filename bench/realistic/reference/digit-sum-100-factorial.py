import math
print(sum(int(d) for d in str(math.factorial(100))))
