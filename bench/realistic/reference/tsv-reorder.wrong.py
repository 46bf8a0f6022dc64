import csv

# compares the numbers as text
with open("inventory.tsv", newline="") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        if row["on_hand"] < row["reorder_level"]:
            print(row["sku"])
