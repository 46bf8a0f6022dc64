text = 'Hi all, please loop in maria.lopez@acme.io and j.smith@partner.org on the contract. Billing questions go to billing@acme.io. For the offsite contact events@acme.io, or maria.lopez@acme.io again. Old address: jsmith@oldmail.net. Send the deck to ceo@acme.io.'
# wrong: whitespace split keeps trailing punctuation
emails = {w for w in text.split() if "@" in w}
for email in sorted(emails):
    print(email)
