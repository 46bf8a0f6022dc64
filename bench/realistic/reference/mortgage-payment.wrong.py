principal, n = 250000, 30 * 12
# wrong: simple interest spread evenly over the months
payment = (principal + principal * 0.065 * 30) / n
print(f"Monthly payment: ${payment:,.2f}")
