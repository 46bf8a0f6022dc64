import pandas as pd
df = pd.read_csv("orders.csv")
# wrong: empty cells are NaN, not ""
print("Orders with missing email:", (df["email"] == "").sum())
print("Unique customers:", df["customer_id"].nunique())
