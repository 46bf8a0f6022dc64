import pandas as pd
df = pd.read_csv("sales.csv", parse_dates=["date"])
march = df[(df["date"] >= "2024-03-01") & (df["date"] <= "2024-03-31")]
print("Units sold in March 2024:", march["units"].sum())
