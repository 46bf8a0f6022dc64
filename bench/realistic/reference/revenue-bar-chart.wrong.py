import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("sales.csv")
# wrong: plots units, not revenue
totals = df.groupby("region")["units"].sum().sort_values(ascending=False)
plt.bar(totals.index, totals.values)
plt.title("Revenue by region")
plt.savefig("revenue.png")
print(totals)
