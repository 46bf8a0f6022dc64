import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("tickets.csv")
counts = df["status"].value_counts()
plt.bar(counts.index, counts.values, color=["tab:blue", "tab:orange", "tab:green"])
plt.title("Tickets by status")
plt.savefig("status.png")
print(counts)
