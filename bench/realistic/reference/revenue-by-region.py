import pandas as pd
df = pd.read_csv("sales.csv")
df["revenue"] = df["units"] * df["unit_price"]
totals = df.groupby("region")["revenue"].sum().sort_values(ascending=False)
for region, revenue in totals.items():
    print(f"{region}: {revenue:.2f}")
