import json

amounts = []
with open("events.jsonl") as f:
    for line in f:
        e = json.loads(line)
        if e["type"] == "purchase":
            amounts.append(e["amount"])
print(f"Average purchase amount: {sum(amounts) / len(amounts):.2f}")
