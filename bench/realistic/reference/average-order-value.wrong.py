import pandas as pd
df = pd.read_csv("orders.csv")
# wrong: truncates instead of rounding
print("Average order value:", int(df["amount"].mean() * 100) / 100)
