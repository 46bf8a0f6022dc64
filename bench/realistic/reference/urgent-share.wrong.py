import pandas as pd
df = pd.read_csv("tickets.csv")
# wrong: exact match only
urgent = df["priority"] == "urgent"
print(f"Urgent tickets: {urgent.mean() * 100:.1f}%")
