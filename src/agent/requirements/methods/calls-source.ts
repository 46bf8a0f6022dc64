/**
 * The Python program that reads what a program calls, with Python's own `ast` in the sandbox (the
 * mechanism of `src/programs/facts-source.ts`: the code is untrusted, never parsed on the host nor
 * with regular expressions, and nothing of it runs). It reads {@link CALLS_INPUT} from its work dir
 * and prints one JSON object, {@link ProgramCalls} (`calls.ts`), or `{"error": "…"}` when the code
 * does not parse.
 */

/** The name the program's code is given under in the reader's work dir. */
export const CALLS_INPUT = 'program_source.py';

/** The reader (see the module comment). */
export const CALLS_PROGRAM = String.raw`
import ast, json, sys

FILE = ${JSON.stringify(CALLS_INPUT)}
BUILTINS = {'round', 'sum', 'len', 'abs', 'min', 'max', 'sorted', 'float', 'int', 'format'}
MAX_CALLS = 400

def main():
    src = open(FILE, encoding='utf-8', errors='replace').read()
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        print(json.dumps({"error": "the program does not parse (line %s: %s)" % (e.lineno, e.msg)}))
        return
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    root = a.name.split('.')[0]
                    aliases[root] = root
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                aliases[a.asname or a.name] = node.module + '.' + a.name

    def text(n, limit=120):
        t = ast.get_source_segment(src, n)
        if t is None:
            try:
                t = ast.unparse(n)
            except Exception:
                t = ''
        t = ' '.join(t.split())
        return t if len(t) <= limit else t[:limit - 1] + '…'

    def dotted(n):
        parts = []
        while isinstance(n, ast.Attribute):
            parts.append(n.attr)
            n = n.value
        if isinstance(n, ast.Name):
            if n.id in aliases:
                return '.'.join([aliases[n.id]] + parts[::-1])
            if not parts and n.id in BUILTINS:
                return n.id
        return ''

    def number(n):
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant):
            v = n.operand.value
            return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool):
            return n.value
        return None

    calls, names, formats, compares, hundreds, plus3, plus1 = [], set(), [], [], [], False, False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(calls) < MAX_CALLS:
            f = node.func
            fn = dotted(f)
            method = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ''
            receiver = text(f.value, 80) if isinstance(f, ast.Attribute) and not fn else ''
            calls.append({
                "fn": fn, "method": method, "receiver": receiver,
                "kw": {k.arg: text(k.value, 60) for k in node.keywords if k.arg},
                "args": [text(a, 60) for a in node.args[:4]],
                "text": text(node),
            })
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.FormattedValue) and isinstance(node.format_spec, ast.JoinedStr):
            spec = ''.join(v.value for v in node.format_spec.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            formats.append(spec[:20])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and ('{:' in node.value or '%' in node.value) and len(formats) < 50:
            formats.append(node.value[:40])
        elif isinstance(node, ast.Compare):
            sides = [node.left] + list(node.comparators)
            for i, op in enumerate(node.ops):
                sym = {ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>='}.get(type(op))
                if sym is None:
                    continue
                consts = [v for v in (number(sides[i]), number(sides[i + 1])) if v is not None]
                compares.append({"op": sym, "consts": consts, "text": text(node, 80)})
        elif isinstance(node, ast.BinOp):
            if isinstance(node.op, (ast.Mult, ast.Div)) and 100 in (number(node.left), number(node.right)):
                hundreds.append(text(node, 80))
            if isinstance(node.op, ast.Add) and 3 in (number(node.left), number(node.right)):
                plus3 = True
            if isinstance(node.op, ast.Add) and 1 in (number(node.left), number(node.right)):
                plus1 = True
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and number(node.value) == 1:
            plus1 = True
    for c in calls:
        if c["method"] == "mul" and c["args"][:1] == ["100"]:
            hundreds.append(c["text"])
    print(json.dumps({"calls": calls, "names": sorted(names)[:800], "formats": formats[:50], "compares": compares[:200], "hundreds": hundreds[:20], "plus3": plus3, "plus1": plus1}))

main()
`;
