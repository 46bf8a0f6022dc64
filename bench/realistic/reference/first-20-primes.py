primes = []
n = 2
while len(primes) < 20:
    if all(n % p for p in primes):
        primes.append(n)
    n += 1
print(", ".join(map(str, primes)))
