import pandas as pd
import matplotlib.pyplot as plt
scores = pd.read_csv("scores.csv")["score"]
bins = list(range(0, 101, 10))
counts, edges, _ = plt.hist(scores, bins=bins, edgecolor="black")
plt.savefig("histogram.png")
pd.DataFrame({"bin": [f"{a}-{a + 10}" for a in bins[:-1]], "count": counts.astype(int)}).to_csv("hist.csv", index=False)
