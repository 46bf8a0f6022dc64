# wrong: compounded yearly
balance = 10000 * (1 + 0.045) ** 7
print(f"After 7 years: ${balance:,.2f}")
