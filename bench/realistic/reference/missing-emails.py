import pandas as pd
df = pd.read_csv("orders.csv")
print("Orders with missing email:", df["email"].isna().sum())
print("Unique customers:", df["customer_id"].nunique())
