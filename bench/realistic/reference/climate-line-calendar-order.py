import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("climate.csv")
order = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
df["month"] = pd.Categorical(df["month"], categories=order, ordered=True)
df = df.sort_values("month")
plt.plot(df["month"].astype(str), df["avg_temp_c"], marker="o")
plt.savefig("climate.png")
df.to_csv("plotted.csv", index=False)
