import numpy as np
import matplotlib.pyplot as plt
x = np.linspace(-5, 5, 201)
plt.plot(x, x ** 2, color="red", label="y = x^2")
plt.legend(loc="lower left")
plt.title("y = x^2")
plt.savefig("parabola.png")
