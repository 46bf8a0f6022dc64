import pandas as pd
import matplotlib.pyplot as plt
scores = pd.read_csv("scores.csv")["score"]
# wrong: 10 automatic bins over the data's range, not 0-100
counts, edges, _ = plt.hist(scores, bins=10, edgecolor="black")
plt.savefig("histogram.png")
pd.DataFrame({"bin_start": edges[:-1], "count": counts.astype(int)}).to_csv("hist.csv", index=False)
