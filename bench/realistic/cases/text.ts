/**
 * Text-processing requests. Expected values computed with /usr/bin/python3 (re, collections) from
 * the texts below and in `../inputs.ts`.
 */
import { APP_LOG, MEMO_TXT } from '../inputs.js';
import { hourCounts, numbersIn, wordRe } from '../parse.js';
import { expectNumber } from '../stdout-checks.js';
import { bad, file, ok, type RealisticRequest } from '../types.js';

const WORDS = 'Level, rotor, Python, Racecar, noon, banana, Stats, refer, civic, data, Madam, kayak, apple';
const EMAIL_TEXT =
  'Hi all, please loop in maria.lopez@acme.io and j.smith@partner.org on the contract. Billing questions go to billing@acme.io. ' +
  'For the offsite contact events@acme.io, or maria.lopez@acme.io again. Old address: jsmith@oldmail.net. Send the deck to ceo@acme.io.';
const CIPHER = 'Phhw ph dw wkh qruwk jdwh dw qrrq, eulqj wkh eoxh iroghu.';

/** The text requests, in a fixed order. */
export const TEXT_REQUESTS: RealisticRequest[] = [
  {
    id: 'top-5-words',
    kind: 'text',
    requirement:
      "What are the 5 most common words in memo.txt? Ignore upper/lower case and punctuation. Show each word with its count, most common first.",
    inputFiles: [file('memo.txt', MEMO_TXT)],
    // Counter of re.findall('[a-z]+', text.lower()): the 21, launch 7, team 6, app 5, data 4; then 3s.
    // Splitting on spaces without stripping punctuation gives the 19, team 5, launch 4 …
    check: async ({ stdout }) => {
      // where each word is printed on a line that also shows its count (position in the whole
      // output, so that a one-line list of pairs is ordered too)
      const lines = stdout.split('\n');
      const starts = lines.map((_, i) => lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0));
      let previous = -1;
      for (const [word, count] of [['the', 21], ['launch', 7], ['team', 6], ['app', 5], ['data', 4]] as const) {
        const at = lines.findIndex((l) => wordRe(word).test(l) && numbersIn(l).includes(count));
        if (at < 0) return bad(`no line with "${word}" and ${count}`);
        const position = starts[at]! + lines[at]!.search(wordRe(word));
        if (position < previous) return bad(`"${word}" is out of order`);
        previous = position;
      }
      return ok('the 21, launch 7, team 6, app 5, data 4');
    },
  },
  {
    id: 'count-vowels',
    kind: 'text',
    requirement: 'how many vowels (a, e, i, o, u) are in this sentence: "Our Annual Office Picnic is on Saturday at Elm Park; Everyone is Invited!"',
    // 26 counting capitals; 20 when only lower-case vowels are counted.
    check: async ({ stdout }) => expectNumber(stdout, '26', ['20']),
  },
  {
    id: 'palindromes',
    kind: 'text',
    requirement: `Which of these words are palindromes? ${WORDS}. Print only the palindromes, one per line.`,
    // case-insensitive: Level rotor Racecar noon Stats refer civic Madam kayak (a case-sensitive
    // test keeps only rotor noon refer civic kayak).
    check: async ({ stdout }) => {
      const words = WORDS.split(', ').map((w) => w.toLowerCase());
      const printed = new Set(words.filter((w) => wordRe(w).test(stdout)));
      const expected = ['level', 'rotor', 'racecar', 'noon', 'stats', 'refer', 'civic', 'madam', 'kayak'];
      const missing = expected.filter((w) => !printed.has(w));
      const extra = [...printed].filter((w) => !expected.includes(w));
      if (missing.length || extra.length) return bad(`missing ${missing.join(' ') || '-'}; not palindromes but printed ${extra.join(' ') || '-'}`);
      return ok('the 9 palindromes and nothing else');
    },
  },
  {
    id: 'extract-emails',
    kind: 'text',
    requirement: `Pull out all the unique email addresses from this text and list them sorted alphabetically, one per line:\n\n${EMAIL_TEXT}`,
    // sorted(set(...)) of the 6 addresses, no trailing punctuation ('.' sorts before 's').
    check: async ({ stdout }) => {
      const found = stdout.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+/g) ?? [];
      const expected = ['billing@acme.io', 'ceo@acme.io', 'events@acme.io', 'j.smith@partner.org', 'jsmith@oldmail.net', 'maria.lopez@acme.io'];
      return found.join(' ') === expected.join(' ')
        ? ok('the 6 addresses, sorted')
        : bad(`printed ${found.join(' ') || 'no address'}`);
    },
  },
  {
    id: 'caesar-decode',
    kind: 'text',
    requirement: `My friend sent me this message encoded with a Caesar cipher, every letter shifted forward by 3. Can you decode it? "${CIPHER}"`,
    // each letter shifted back by 3, case and punctuation kept.
    check: async ({ stdout }) => {
      const plain = 'meet me at the north gate at noon, bring the blue folder.';
      return stdout.toLowerCase().replace(/\s+/g, ' ').includes(plain) ? ok('decoded') : bad(`expected "${plain}"`);
    },
  },
  {
    id: 'errors-per-hour',
    kind: 'text',
    requirement:
      'app.log is our server log from this morning. How many ERROR lines were there in each hour? Print the hour and the count, in time order.',
    inputFiles: [file('app.log', APP_LOG)],
    // lines whose level (3rd field) is ERROR, by hour: 08→2, 09→3, 10→1, 11→1, 12→2, 13→1.
    // Searching for the text "ERROR" anywhere also counts "INFO cleared 3 ERROR flags" (08→3).
    check: async ({ stdout }) => {
      const expected = new Map([[8, 2], [9, 3], [10, 1], [11, 1], [12, 2], [13, 1]]);
      const got = hourCounts(stdout).filter(([h]) => expected.has(h));
      const shown = got.map(([h, n]) => `${h}→${n}`).join(' ');
      const want = [...expected].map(([h, n]) => `${h}→${n}`).join(' ');
      return shown === want ? ok(want) : bad(`got ${shown || 'no hour/count lines'}, expected ${want}`);
    },
  },
];
