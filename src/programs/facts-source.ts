/**
 * The Python program that reads a team program's facts in the sandbox, with Python's own `ast`
 * (the code is never parsed on the host, and never with regular expressions): its parameters
 * (module-level assignments of one literal, str/int/float/bool, to an UPPER_CASE or clearly
 * parameter-like name, assigned once), the SQL sources it names (`sql("shop", …)`) and the HTTP
 * hosts of the URLs it spells. It reads {@link FACTS_INPUT} from its work dir and prints one JSON object:
 * `{"parameters": [{name, type, default, span}], "sources": [...], "hosts": [...]}` or
 * `{"error": "…"}` when the code does not parse. Spans are 1-based lines and 0-based UTF-16
 * columns (JavaScript's string indices), end exclusive.
 */

/** Lower-case names taken as parameters (whole words of the name, e.g. `period_days`, `min_amount`). */
export const PARAMETER_WORDS = [
  'region', 'country', 'city', 'market', 'segment', 'category', 'product', 'customer', 'currency',
  'period', 'year', 'month', 'quarter', 'week', 'day', 'days', 'weeks', 'months', 'years', 'hours',
  'date', 'start', 'end', 'since', 'until', 'from', 'to',
  'threshold', 'limit', 'top', 'min', 'max', 'cutoff', 'rate', 'percent', 'pct', 'target',
] as const;

/** The name the program's code is given under in the facts program's work dir. */
export const FACTS_INPUT = 'team_program_source.py';

/** The facts program (see the module comment). */
export const FACTS_PROGRAM = String.raw`
import ast, json, urllib.parse

FILE = ${JSON.stringify(FACTS_INPUT)}
WORDS = set(json.loads(${JSON.stringify(JSON.stringify(PARAMETER_WORDS))}))

def utf16(line_text, byte_col):
    prefix = line_text.encode('utf-8')[:byte_col].decode('utf-8', 'replace')
    return len(prefix.encode('utf-16-le')) // 2

def parameter_like(name):
    if name.startswith('_'):
        return False
    if name.isupper() and any(c.isalpha() for c in name):
        return True
    return name.islower() and any(part in WORDS for part in name.split('_'))

def literal(node):
    neg = False
    inner = node
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant):
        neg = isinstance(node.op, ast.USub)
        inner = node.operand
    if not isinstance(inner, ast.Constant):
        return None
    v = inner.value
    if isinstance(v, bool):
        return None if inner is not node else ('bool', v)
    if isinstance(v, int):
        if abs(v) > 2 ** 53:
            return None
        return ('int', -v if neg else v)
    if isinstance(v, float):
        if v != v or v in (float('inf'), float('-inf')):
            return None
        return ('float', -v if neg else v)
    if isinstance(v, str) and inner is node:
        return ('str', v)
    return None

def main():
    source = open(FILE, encoding='utf-8').read()
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        print(json.dumps({"error": "the program does not parse: %s (line %s)" % (e.msg, e.lineno)}))
        return
    lines = source.split('\n')
    counts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                counts[n] = counts.get(n, 0) + 2
    params = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None and node.simple:
            name, value = node.target.id, node.value
        else:
            continue
        if counts.get(name, 0) != 1 or not parameter_like(name):
            continue
        lit = literal(value)
        if lit is None:
            continue
        if value.lineno != value.end_lineno and lit[0] != 'str':
            continue
        span = {
            "line": value.lineno,
            "col": utf16(lines[value.lineno - 1], value.col_offset),
            "endLine": value.end_lineno,
            "endCol": utf16(lines[value.end_lineno - 1], value.end_col_offset),
        }
        params.append({"name": name, "type": lit[0], "default": lit[1], "span": span})
    sources, hosts = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if fname == 'sql' and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                if node.args[0].value not in sources:
                    sources.append(node.args[0].value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            if text.startswith(('http://', 'https://')) and len(text) < 2000:
                try:
                    netloc = urllib.parse.urlsplit(text).netloc.rsplit('@', 1)[-1]
                except ValueError:
                    continue
                if netloc and netloc not in hosts:
                    hosts.append(netloc.lower())
    print(json.dumps({"parameters": params, "sources": sources[:20], "hosts": hosts[:20]}))

main()
`;
