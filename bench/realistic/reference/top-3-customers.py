import pandas as pd
df = pd.read_csv("orders.csv")
top = df.groupby("customer_name")["amount"].sum().sort_values(ascending=False).head(3)
for name, total in top.items():
    print(f"{name}: {total:.2f}")
