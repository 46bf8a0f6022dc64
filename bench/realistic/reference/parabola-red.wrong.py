import numpy as np
import matplotlib.pyplot as plt
# wrong: only x from 0 to 5
x = np.linspace(0, 5, 101)
plt.plot(x, x ** 2, color="red", label="y = x^2")
plt.legend(loc="lower left")
plt.title("y = x^2")
plt.savefig("parabola.png")
