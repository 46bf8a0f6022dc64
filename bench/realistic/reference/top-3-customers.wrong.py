import pandas as pd
df = pd.read_csv("orders.csv")
# wrong: ranks by number of orders
counts = df.groupby("customer_name")["amount"].agg(["count", "sum"]).sort_values("count", ascending=False).head(3)
for name, row in counts.iterrows():
    print(f"{name}: {row['sum']:.2f}")
