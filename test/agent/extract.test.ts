import { describe, expect, it } from 'vitest';
import { extractCode, NO_CODE } from '../../src/agent/replies/extract.js';

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
  // chat-template tokens end the reply (a server with the wrong template keeps writing other turns)
  ['R2: im_end and another turn after the code', `${F}python\nprint(2 + 2)\n<|im_end|>\n<|im_start|>user\nthanks<|im_end|>`, 'print(2 + 2)'],
  ['im_end after a closed block', `${F}python\nprint(1)\n${F}<|im_end|><|im_start|>user\n${F}python\nprint("other turn")\n${F}`, 'print(1)'],
  ['endoftext', `${F}python\nx = 3\nprint(x)\n${F}\n<|endoftext|>Human: ${F}python\nprint(0)\n${F}`, 'x = 3\nprint(x)'],
  ['llama 3 eot_id and header', `${F}python\nprint("a")\n<|eot_id|><|start_header_id|>user<|end_header_id|>\nmore`, 'print("a")'],
  ['</s> at a line end', `${F}python\nprint("s")\n</s>\n[INST] next [/INST]`, 'print("s")'],
  ['[INST] starts another turn', `print(5)\n[INST] and now plot it [/INST]`, 'print(5)'],
  ['gemma end_of_turn', `${F}python\nprint(7)\n${F}<end_of_turn>\n<start_of_turn>user\nok`, 'print(7)'],
  ['a leading assistant header is dropped', `<|im_start|>assistant\n${F}python\nprint(8)\n${F}`, 'print(8)'],
  ['</s> inside a string is code', `${F}python\nhtml = "<s>old</s> new"\nprint(html)\n${F}`, 'html = "<s>old</s> new"\nprint(html)'],
  // several blocks: the implementation is chosen
  [
    'R3: a usage block before the implementation that prints',
    `Usage:\n${F}python\nprint(area(3))\n${F}\nImplementation:\n${F}python\nimport math\n\ndef area(r):\n    return math.pi * r ** 2\n\nprint(area(2))\n${F}`,
    'import math\n\ndef area(r):\n    return math.pi * r ** 2\n\nprint(area(2))',
  ],
  [
    'a usage block before definitions that do not print: placed after them',
    `Call it like this:\n${F}python\nprint(add(2, 3))\n${F}\nwith\n${F}python\ndef add(a, b):\n    return a + b\n${F}`,
    'def add(a, b):\n    return a + b\n\nprint(add(2, 3))',
  ],
  [
    'a usage block after an implementation that prints is left out',
    `${F}python\ndef square(n):\n    return n * n\n\nprint(square(4))\n${F}\nFor example:\n${F}python\nsquare(10)\n${F}`,
    'def square(n):\n    return n * n\n\nprint(square(4))',
  ],
  [
    'constants with the definitions do not make it an implementation that acts',
    `${F}python\nRATE = 0.2\n\ndef tax(x):\n    return x * RATE\n${F}\n${F}python\nprint(tax(100))\n${F}`,
    'RATE = 0.2\n\ndef tax(x):\n    return x * RATE\n\nprint(tax(100))',
  ],
  [
    'a class used by a later block, the later block defines its own helper',
    `${F}python\nclass Stack:\n    def __init__(self):\n        self.items = []\n${F}\n${F}python\ndef fill(s):\n    s.items.append(1)\n\ns = Stack()\nfill(s)\nprint(s.items)\n${F}`,
    'class Stack:\n    def __init__(self):\n        self.items = []\n\ndef fill(s):\n    s.items.append(1)\n\ns = Stack()\nfill(s)\nprint(s.items)',
  ],
  [
    'a checks block and an output block are never the program',
    `${F}python\nprint(sum(range(5)))\n${F}\n${F}checks\nassert OUTPUT.strip() == "10"\n${F}\n${F}output\n10\n${F}`,
    'print(sum(range(5)))',
  ],
  // sentences that begin like Python are not code
  [
    'no fence: a sentence starting with "print the" after the code is trimmed',
    'import math\nprint(math.sqrt(2))\nprint the total per region first, then the mean',
    'import math\nprint(math.sqrt(2))',
  ],
  [
    'a fence, and sentences beginning like Python around it',
    `for each row we sum the values:\n${F}python\nrows = [[1, 2], [3, 4]]\nfor row in rows:\n    print(sum(row))\n${F}\nprint the total per region first, then the mean.`,
    'rows = [[1, 2], [3, 4]]\nfor row in rows:\n    print(sum(row))',
  ],
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
  ['no fence: a sentence that begins with print', 'print the total per region first, then the mean per month', NO_CODE],
  ['no fence: a sentence that begins like a for loop', 'for each row in the table: we sum the amounts…', NO_CODE],
  ['no fence: a sentence that begins like an if', 'if the file is missing: upload it again…', NO_CODE],
  ['no fence: a sentence that begins with import', 'import the data first, then plot it…', NO_CODE],
  [
    'no fence: a sentence between code lines',
    'total = 0\nfor each row we sum the amount…\nprint(total)',
    NO_CODE,
  ],
  ['only template tokens after an empty turn', '<|im_end|>\n<|im_start|>user\nprint(1)', 'the reply was empty'],
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
