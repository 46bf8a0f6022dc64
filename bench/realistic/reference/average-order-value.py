import pandas as pd
df = pd.read_csv("orders.csv")
print(f"Average order value: {df['amount'].mean():.2f}")
