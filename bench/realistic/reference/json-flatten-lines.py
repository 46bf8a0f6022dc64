import csv
import json

with open("orders.json") as f:
    orders = json.load(f)["orders"]
with open("order_lines.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["order_id", "country", "sku", "qty", "price"])
    for order in orders:
        for line in order["lines"]:
            w.writerow([order["id"], order["customer"]["country"], line["sku"], line["qty"], line["price"]])
print("wrote order_lines.csv")
