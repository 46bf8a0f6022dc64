principal, rate, n = 250000, 0.065 / 12, 30 * 12
payment = principal * rate / (1 - (1 + rate) ** -n)
print(f"Monthly payment: ${payment:,.2f}")
