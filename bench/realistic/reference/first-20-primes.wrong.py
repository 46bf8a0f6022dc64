# wrong: the primes up to 20
primes = [n for n in range(2, 21) if all(n % d for d in range(2, n))]
print(", ".join(map(str, primes)))
