import pandas as pd
df = pd.read_csv("tickets.csv")
urgent = df["priority"].str.strip().str.lower().eq("urgent")
print(f"Urgent tickets: {urgent.mean() * 100:.1f}%")
