balance = 10000 * (1 + 0.045 / 12) ** (12 * 7)
print(f"After 7 years: ${balance:,.2f}")
