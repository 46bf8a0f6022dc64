import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("sales.csv")
df["revenue"] = df["units"] * df["unit_price"]
totals = df.groupby("region")["revenue"].sum().sort_values(ascending=False)
plt.bar(totals.index, totals.values)
plt.title("Revenue by region")
plt.ylabel("Revenue")
plt.savefig("revenue.png")
print(totals)
