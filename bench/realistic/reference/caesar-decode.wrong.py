msg = "Phhw ph dw wkh qruwk jdwh dw qrrq, eulqj wkh eoxh iroghu."
out = ""
for c in msg:
    if c.isalpha():
        base = ord("A") if c.isupper() else ord("a")
        # wrong: shifts forward again
        out += chr((ord(c) - base + 3) % 26 + base)
    else:
        out += c
print(out)
