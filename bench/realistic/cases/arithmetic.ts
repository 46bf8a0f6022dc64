/**
 * Arithmetic with exact answers. Every expected value was computed with /usr/bin/python3 (integers,
 * decimal.Decimal or math), shown in the comment at each request.
 */
import { linesOf, numbersIn, sameNumbers } from '../parse.js';
import { expectNumber } from '../stdout-checks.js';
import { bad, ok, type RealisticRequest } from '../types.js';

/** The first 20 primes, by trial division. */
const PRIMES_20 = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71];

/** The arithmetic requests, in a fixed order. */
export const ARITHMETIC_REQUESTS: RealisticRequest[] = [
  {
    id: 'first-20-primes',
    kind: 'arithmetic',
    requirement: 'compute the first 20 prime numbers and print them as a comma-separated list',
    // the primes up to 20 (2..19, eight of them) is the usual wrong answer.
    check: async ({ stdout }) => {
      const line = linesOf(stdout).find((l) => sameNumbers(numbersIn(l), PRIMES_20));
      if (!line) return bad(`no line holding exactly the first 20 primes; printed "${stdout.trim().slice(0, 80)}"`);
      return line.includes(',') ? ok('2 … 71, comma-separated') : bad('the primes are not comma-separated');
    },
  },
  {
    id: 'compound-interest',
    kind: 'arithmetic',
    requirement:
      'If I put $10,000 in a savings account at 4.5% annual interest, compounded monthly, how much will I have after 7 years? Round to the cent.',
    // Decimal 10000*(1+0.045/12)**84 = 13694.5225… → 13694.52 (compounded yearly: 13608.62).
    check: async ({ stdout }) => expectNumber(stdout, '13694.52', ['13608.62']),
  },
  {
    id: 'mortgage-payment',
    kind: 'arithmetic',
    requirement: "What's the monthly payment on a $250,000 mortgage at 6.5% a year over 30 years? Standard fixed-rate loan, to the cent.",
    // P*i/(1-(1+i)**-360), i = 0.065/12: 1580.1700… → 1580.17.
    check: async ({ stdout }) => expectNumber(stdout, '1580.17'),
  },
  {
    id: 'multiples-below-1000',
    kind: 'arithmetic',
    requirement: 'What is the sum of all the numbers below 1000 that are multiples of 3 or 5?',
    // sum over range(1000): 233168 (including 1000: 234168).
    check: async ({ stdout }) => expectNumber(stdout, '233168', ['234168']),
  },
  {
    id: 'fibonacci-50th',
    kind: 'arithmetic',
    requirement: "What's the 50th Fibonacci number? (the sequence starts 1, 1, 2, 3, 5, ...)",
    // F1 = F2 = 1: F50 = 12586269025 (F49 = 7778742049, F51 = 20365011074).
    check: async ({ stdout }) => expectNumber(stdout, '12586269025', ['7778742049', '20365011074']),
  },
  {
    id: 'digit-sum-100-factorial',
    kind: 'arithmetic',
    requirement: 'What is the sum of the digits of 100 factorial?',
    // sum(map(int, str(math.factorial(100)))) = 648 (99! has the same digit sum; a float factorial does not).
    check: async ({ stdout }) => expectNumber(stdout, '648'),
  },
  {
    id: 'percent-increase',
    kind: 'arithmetic',
    requirement: 'Revenue went from 84,250 last quarter to 97,130 this quarter. What is the percentage increase? 2 decimals.',
    // (97130-84250)/84250*100 = 15.2878… → 15.29 (relative to the new value: 13.26).
    check: async ({ stdout }) => expectNumber(stdout, '15.29', ['13.26']),
  },
  {
    id: 'split-bill',
    kind: 'arithmetic',
    requirement:
      "Dinner for 6 came to $247.80. We're adding an 18% tip and splitting it evenly. How much does each person pay? Round each share UP to the next cent so we don't come up short.",
    // Decimal 247.80*1.18/6 = 48.734 → up: 48.74 (rounded to nearest: 48.73).
    check: async ({ stdout }) => expectNumber(stdout, '48.74', ['48.73']),
  },
];
