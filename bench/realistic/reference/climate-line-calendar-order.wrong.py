import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("climate.csv")
# wrong: the file's (alphabetical) order is kept
plt.plot(df["month"], df["avg_temp_c"], marker="o")
plt.savefig("climate.png")
df.to_csv("plotted.csv", index=False)
