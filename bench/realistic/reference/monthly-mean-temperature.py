import pandas as pd
df = pd.read_csv("temps.csv", parse_dates=["date"])
means = df.groupby(df["date"].dt.month)["temp_c"].mean()
for month, t in means.items():
    print(f"{pd.Timestamp(2024, month, 1):%B}: {t:.1f}")
