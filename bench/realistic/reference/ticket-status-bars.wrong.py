import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("tickets.csv")
counts = df["status"].value_counts()
# wrong: one colour for all bars
plt.bar(counts.index, counts.values)
plt.title("Tickets by status")
plt.savefig("status.png")
print(counts)
