import csv

with open("inventory.tsv", newline="") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        if int(row["on_hand"]) < int(row["reorder_level"]):
            print(row["sku"])
