import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
x = np.linspace(0, 2 * np.pi, 100)
plt.plot(x, np.sin(x), label="sin(x)")
plt.plot(x, np.cos(x), label="cos(x)")
plt.legend()
plt.savefig("waves.png")
pd.DataFrame({"x": x, "sin": np.sin(x), "cos": np.cos(x)}).to_csv("waves.csv", index=False)
