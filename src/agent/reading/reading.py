# How a program read the request, from its source alone (never run): which columns it used,
# which rows it kept, how it grouped and what it computed. Reads programs.json (a list of
# sources) from the work dir and prints one JSON line: a list with one reading per program,
# each {"columns": [...], "filters": [...], "groups": [...], "aggregations": [...], "distinct": bool}.
import ast
import json

AGGREGATIONS = {
    'sum', 'mean', 'median', 'count', 'nunique', 'size', 'value_counts', 'max', 'min', 'std', 'var',
    'corr', 'idxmax', 'idxmin', 'nlargest', 'nsmallest', 'cumsum', 'agg', 'aggregate', 'quantile',
    'mode', 'prod', 'len', 'round',
}
DISTINCT = {'drop_duplicates', 'unique', 'nunique', 'set'}
COMPARE = {ast.Eq: '==', ast.NotEq: '!=', ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>=', ast.In: 'in', ast.NotIn: 'not in'}
MAX_ITEMS = 6
MAX_TEXT = 60


def text(node):
    try:
        s = ast.unparse(node)
    except Exception:
        return '?'
    return s if len(s) <= MAX_TEXT else s[: MAX_TEXT - 1] + '…'


def column_name(node):
    """A column named by a subscript or an attribute call's string: df['sales'] -> sales."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def add(seq, item):
    if item and item not in seq and len(seq) < MAX_ITEMS:
        seq.append(item)


def short_filter(node):
    """A comparison, with df['x'] shown as x."""
    class Names(ast.NodeTransformer):
        def visit_Subscript(self, sub):
            name = column_name(sub.slice)
            if name is not None:
                return ast.Name(id=name)
            return self.generic_visit(sub)
    try:
        node = Names().visit(ast.parse(ast.unparse(node), mode='eval')).body
    except Exception:
        pass
    return text(node)


def read(source):
    out = {'columns': [], 'filters': [], 'groups': [], 'aggregations': [], 'distinct': False}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        out['error'] = 'not valid Python'
        return out
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            name = column_name(node.slice)
            if name is not None:
                add(out['columns'], name)
            elif isinstance(node.slice, ast.List):
                for elt in node.slice.elts:
                    add(out['columns'], column_name(elt))
            elif isinstance(node.slice, (ast.Compare, ast.BoolOp, ast.UnaryOp)) or (
                isinstance(node.slice, ast.BinOp) and isinstance(node.slice.op, (ast.BitAnd, ast.BitOr))
            ):
                add(out['filters'], short_filter(node.slice))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name == 'groupby' and node.args:
                arg = node.args[0]
                keys = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
                for key in keys:
                    add(out['groups'], column_name(key) or short_filter(key))
            elif name == 'query' and node.args:
                add(out['filters'], column_name(node.args[0]) or text(node.args[0]))
            elif name in ('isin', 'between', 'contains', 'startswith', 'endswith', 'match') and isinstance(func, ast.Attribute):
                add(out['filters'], short_filter(node))
            if name in AGGREGATIONS:
                add(out['aggregations'], name)
            if name in DISTINCT:
                out['distinct'] = True
        elif isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            add(out['filters'], short_filter(node.test))
        elif isinstance(node, ast.comprehension):
            for cond in node.ifs:
                add(out['filters'], short_filter(cond))
    return out


def main():
    with open('programs.json', encoding='utf-8') as f:
        programs = json.load(f)
    print(json.dumps([read(p) for p in programs]))


main()
