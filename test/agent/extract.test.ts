import { describe, expect, it } from 'vitest';
import { extractCode, NO_CODE } from '../../src/agent/extract.js';

const F = '```';

/** [name, reply, expected code] */
const found: Array<[string, string, string]> = [
  ['python tag', `Here you go:\n\n${F}python\nprint("hi")\n${F}\n\nIt prints hi.`, 'print("hi")'],
  ['py tag', `${F}py\nx = 1\nprint(x)\n${F}`, 'x = 1\nprint(x)'],
  ['Python3 tag', `${F}Python3\nprint(1)\n${F}`, 'print(1)'],
  ['python3.11 tag', `${F}python3.11\nprint(1)\n${F}`, 'print(1)'],
  ['{.python} tag', `${F}{.python}\nprint(1)\n${F}`, 'print(1)'],
  ['tag with attributes', `${F}python title="main.py"\nprint(1)\n${F}`, 'print(1)'],
  ['plain fence that looks like Python', `Try this:\n${F}\nimport math\nprint(math.pi)\n${F}`, 'import math\nprint(math.pi)'],
  ['tilde fence', `~~~python\nprint("tilde")\n~~~`, 'print("tilde")'],
  ['plain tilde fence', `~~~\nfor i in range(3):\n    print(i)\n~~~`, 'for i in range(3):\n    print(i)'],
  ['longer fence holding a shorter one', `\`\`\`\`python\ns = """\n${F}\n"""\nprint(s)\n\`\`\`\``, 's = """\n```\n"""\nprint(s)'],
  ['indented fence (inside a list)', `1. Save this:\n   ${F}python\n   def f():\n       return 1\n   print(f())\n   ${F}`, 'def f():\n    return 1\nprint(f())'],
  ['unclosed fence (cut-off reply)', `${F}python\nprint("cut")\n`, 'print("cut")'],
  ['CRLF', `Code:\r\n${F}python\r\nx = 1\r\nif x:\r\n    print(x)\r\n${F}\r\n`, 'x = 1\nif x:\n    print(x)'],
  [
    'bash install block then python block',
    `Install first:\n${F}bash\npip install requests\n${F}\nThen:\n${F}python\nimport requests\nprint(requests.__version__)\n${F}`,
    'import requests\nprint(requests.__version__)',
  ],
  [
    'python preferred over an untagged block',
    `${F}python\nprint(sum([1, 2]))\n${F}\nOutput:\n${F}\nx = 3\n${F}`,
    'print(sum([1, 2]))',
  ],
  [
    'code block then usage block: joined',
    `${F}python\ndef add(a, b):\n    return a + b\n${F}\n\nExample usage:\n\n${F}python\nprint(add(2, 3))\n${F}`,
    'def add(a, b):\n    return a + b\n\nprint(add(2, 3))',
  ],
  [
    'a later full version supersedes an earlier draft of the same functions',
    `${F}python\ndef area(r):\n    return 3.14 * r * r\n${F}\nBetter, with math.pi:\n${F}python\nimport math\n\ndef area(r):\n    return math.pi * r ** 2\n\nprint(area(2))\n${F}`,
    'import math\n\ndef area(r):\n    return math.pi * r ** 2\n\nprint(area(2))',
  ],
  [
    'a snippet repeated inside the full program is not duplicated',
    `First the import:\n${F}python\nimport os\n${F}\nFull program:\n${F}python\nimport os\nprint(os.getcwd())\n${F}`,
    'import os\nprint(os.getcwd())',
  ],
  ['empty python block skipped for a non-empty one', `${F}python\n${F}\n${F}python\nprint(2)\n${F}`, 'print(2)'],
  ['think section stripped', `<think>\nMaybe ${F}python\nprint("draft")\n${F}\n</think>\n${F}python\nprint("final")\n${F}`, 'print("final")'],
  ['orphan closing think tag', `The user wants... let me write print("draft").\n</think>\n\n${F}python\nprint("final")\n${F}`, 'print("final")'],
  ['thinking tag variant', `<thinking>plan</thinking>${F}python\nprint(1)\n${F}`, 'print(1)'],
  ['interactive session', `${F}pycon\n>>> x = 2\n>>> print(x * 3)\n6\n${F}`, 'x = 2\nprint(x * 3)'],
  ['no fence: whole reply is code', 'import sys\n\nprint(sys.version)\n', 'import sys\n\nprint(sys.version)'],
  [
    'no fence: leading sentence and trailing prose trimmed',
    'Here is the code:\n\ndef main():\n    print("hello")\n\nmain()\n\nLet me know if you need anything else.',
    'def main():\n    print("hello")\n\nmain()',
  ],
  [
    'no fence: docstring prose is not prose',
    '"""\nThis script prints the first ten squares of the numbers.\n"""\nfor i in range(10):\n    print(i * i)',
    '"""\nThis script prints the first ten squares of the numbers.\n"""\nfor i in range(10):\n    print(i * i)',
  ],
  ['no fence: assignments only', 'total = 0\ntotal += 5\nresult = total', 'total = 0\ntotal += 5\nresult = total'],
];

/** [name, reply, expected error (exact, or a RegExp)] */
const refused: Array<[string, string, string | RegExp]> = [
  ['plain prose', 'I am sorry, but I cannot help with that request.', NO_CODE],
  ['prose that mentions code words', 'You could import the data and print it, if you like.', NO_CODE],
  ['empty reply', '   \n', 'the reply was empty'],
  ['bash block only', `Run:\n${F}bash\npip install numpy\n${F}`, `${NO_CODE} (only a bash block)`],
  ['untagged shell block only', `${F}\npip install numpy\n${F}`, /^the reply contained no Python code \(only untagged blocks that are not Python\)$/],
  ['json block only', `${F}json\n{"a": 1}\n${F}`, `${NO_CODE} (only a json block)`],
  ['javascript block only', `${F}js\nconst x = 1;\nconsole.log(x);\n${F}`, `${NO_CODE} (only a js block)`],
  ['empty python block', `${F}python\n${F}`, "the reply's Python code block was empty"],
  ['empty plain block', `${F}\n\n${F}`, "the reply's code block was empty"],
  ['unclosed think at the start', `<think>\nLet me think about ${F}python\nprint(1)\n${F}`, `${NO_CODE} (only a reasoning section)`],
  ['no fence: code mixed with sentences', 'import os\nThis prints the current working directory for you.\nprint(os.getcwd())', NO_CODE],
  ['no fence: shell commands', '$ python main.py\nHello', NO_CODE],
];

describe('extractCode', () => {
  it.each(found)('%s', (_name, reply, code) => {
    expect(extractCode(reply)).toEqual({ code });
  });

  it.each(refused)('refuses: %s', (_name, reply, error) => {
    const r = extractCode(reply);
    expect(r).not.toHaveProperty('code');
    if (typeof error === 'string') expect(r).toEqual({ error });
    else expect((r as { error: string }).error).toMatch(error);
  });
});
