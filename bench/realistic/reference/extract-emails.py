import re
text = 'Hi all, please loop in maria.lopez@acme.io and j.smith@partner.org on the contract. Billing questions go to billing@acme.io. For the offsite contact events@acme.io, or maria.lopez@acme.io again. Old address: jsmith@oldmail.net. Send the deck to ceo@acme.io.'
for email in sorted(set(re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text))):
    print(email)
