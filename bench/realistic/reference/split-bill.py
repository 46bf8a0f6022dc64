import math
share = 247.80 * 1.18 / 6
print(f"Each person pays ${math.ceil(round(share * 100, 6)) / 100:.2f}")
