import pandas as pd
df = pd.read_csv("temps.csv", parse_dates=["date"])
# wrong: grouping by month name sorts alphabetically
means = df.groupby(df["date"].dt.month_name())["temp_c"].mean()
for month, t in means.items():
    print(f"{month}: {t:.1f}")
