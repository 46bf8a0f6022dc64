import pandas as pd
df = pd.read_csv("sales.csv")
df["revenue"] = df["units"] * df["unit_price"]
# wrong: sorted by units sold instead of revenue
order = df.groupby("region")["units"].sum().sort_values(ascending=False).index
totals = df.groupby("region")["revenue"].sum()
for region in order:
    print(f"{region}: {totals[region]:.2f}")
