from scipy.special import factorial
# wrong: scipy's factorial is a float; its digits past the 16th are not those of 100!
print(sum(int(d) for d in str(int(factorial(100)))))
