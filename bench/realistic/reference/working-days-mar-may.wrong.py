import numpy as np
# wrong: busday_count excludes the end date
print("Working days:", np.busday_count("2024-03-01", "2024-05-31"))
