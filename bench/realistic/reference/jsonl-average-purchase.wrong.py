import json

# events without an amount count as 0
amounts = []
with open("events.jsonl") as f:
    for line in f:
        amounts.append(json.loads(line).get("amount", 0))
print(f"Average purchase amount: {sum(amounts) / len(amounts):.2f}")
