import json

buyers = set()
total = 0.0
with open("events.jsonl") as f:
    for line in f:
        e = json.loads(line)
        if e["type"] == "purchase":
            buyers.add(e["user"])
            total += e["amount"]
print(f"Users who bought something: {len(buyers)}")
print(f"Total purchase amount: {total:.2f}")
