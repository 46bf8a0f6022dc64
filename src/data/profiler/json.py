# code-agent input profiler, part 2 of 6: JSON documents and JSON lines (shape, records, the read call,
# one row per entry of a list of objects, quantities).

def tname(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list):
        return "list"
    return "object"


def merged_keys(items):
    keys = {}
    for item in items[:50]:
        if isinstance(item, dict):
            for k, v in item.items():
                keys.setdefault(k, []).append(v)
    return keys


def shape(v, depth=0, brief=False):
    """Compact structure: {id: int, customer: {country: str}, lines: [{sku: str, qty: int}]}."""
    if isinstance(v, dict) or (isinstance(v, list) and v and all(isinstance(i, dict) for i in v[:50]) and depth == -1):
        items = [v] if isinstance(v, dict) else v
        keys = merged_keys(items)
        if depth >= 3:
            return "{…}"
        parts = []
        for k, vals in list(keys.items())[:15]:
            k = str(k)[:40]
            inner = shape(vals[0], depth + 1, brief) if len({tname(x) for x in vals}) == 1 else "|".join(sorted({tname(x) for x in vals}))
            if brief:
                parts.append(k + (inner if inner.startswith(("{", "[")) else ""))
            else:
                parts.append("%s: %s" % (k, inner))
        if len(keys) > 15:
            parts.append("… %d more keys" % (len(keys) - 15))
        return "{" + ", ".join(parts) + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        if all(isinstance(i, dict) for i in v[:50]):
            keys = merged_keys(v)
            if depth >= 3:
                return "[{…}]"
            merged = {k: vals[0] for k, vals in keys.items()}
            return "[" + shape(merged, depth + 1, brief) + "]"
        return "[" + "|".join(sorted({tname(i) for i in v[:50]})) + "]"
    return tname(v)


def main_records(data):
    """(path, list) of the records of a JSON document: itself when a list, or the largest list under a top-level key."""
    if isinstance(data, list):
        return "", data
    if isinstance(data, dict):
        best = None
        for k, v in data.items():
            if isinstance(v, list) and (best is None or len(v) > len(best[1])):
                best = (k, v)
        if best is not None:
            return best
    return None, None


def lines_table(records):
    """When every record holds one list of objects (an order's lines): the list's name, the pandas
    call that makes one row per entry of it with its record's fields beside it, and that table's
    columns; else None. The call is built to run: meta fields that would clash with an entry's
    column are left out (json_normalize refuses them), missing ones become NaN (errors='ignore')."""
    if not records or not all(isinstance(r, dict) for r in records):
        return None
    keys = merged_keys(records)
    lists = [k for k, vals in keys.items()
             if all(isinstance(v, list) for v in vals) and any(v and all(isinstance(i, dict) for i in v) for v in vals)]
    if len(lists) != 1:
        return None
    name = lists[0]
    if not all(isinstance(r.get(name), list) and all(isinstance(i, dict) for i in r[name]) for r in records):
        return None
    columns = []
    for k, vals in merged_keys([i for r in records[:200] for i in r[name]]).items():
        subs = merged_keys(vals) if all(isinstance(v, dict) for v in vals) else {}
        columns.extend("%s.%s" % (k, sk) for sk in subs) if subs else columns.append(str(k))
    meta = []
    for k, vals in keys.items():
        if k == name:
            continue
        if all(isinstance(v, dict) for v in vals):
            meta.extend([k, sk] for sk, svals in merged_keys(vals).items() if not any(isinstance(x, (dict, list)) for x in svals))
        elif not any(isinstance(v, (dict, list)) for v in vals):
            meta.append(k)
    meta = [m for m in meta if (m if isinstance(m, str) else ".".join(m)) not in columns][:8]
    call = "pandas.json_normalize(records, record_path=%s, meta=%s, errors='ignore')" % (q(name, 40), repr(meta))
    return name, call, columns + [m if isinstance(m, str) else ".".join(m) for m in meta]


def record_fields(records):
    """(label, type) of the records' fields and of the fields of their lists of objects ('lines[].qty')."""
    out = []
    for k, vals in merged_keys(records).items():
        kinds = {tname(v) for v in vals}
        if kinds <= {"int", "float"}:
            out.append((str(k)[:40], "float" if "float" in kinds else "int"))
        elif kinds == {"list"}:
            items = [i for v in vals for i in v if isinstance(i, dict)]
            for ik, ivals in merged_keys(items).items():
                ikinds = {tname(v) for v in ivals}
                if ikinds <= {"int", "float"}:
                    out.append(("%s[].%s" % (str(k)[:40], str(ik)[:40]), "float" if "float" in ikinds else "int"))
    return out


def profile_json(name, path, size, text_head):
    if size > JSON_PARSE_BYTES:
        return ("JSON, %s bytes (too large to parse here)" % n(size),
                "JSON, %s bytes: too large to profile; first characters: %s" % (n(size), q(text_head[:300])))
    with open(path, "rb") as f:
        data = json.loads(f.read().decode("utf-8", "replace"))
    lines = ["JSON, %s bytes" % n(size)]
    key, records = main_records(data)
    if isinstance(data, dict):
        keys = list(data.keys())
        lines.append("top level: object with %d key%s: %s" % (len(keys), "" if len(keys) == 1 else "s",
                                                          ", ".join(q(k, 40) for k in keys[:20]) + (" …" if len(keys) > 20 else "")))
        for k in keys[:20]:
            v = data[k]
            extra = " of %s items" % n(len(v)) if isinstance(v, list) else ""
            lines.append("  [%s]: %s%s" % (q(k, 40), tname(v), extra))
    elif isinstance(data, list):
        lines.append("top level: list of %s items" % n(len(data)))
    else:
        lines.append("top level: %s %s" % (tname(data), q(json.dumps(data))))
    summary = lines[0]
    if records is not None and records:
        keep_record_fields(name, records)
        where = "data" if key == "" else "data[%s]" % q(key, 40)
        lines.append("records: %s, a list of %s %s" % (where, n(len(records)), "objects" if isinstance(records[0], dict) else tname(records[0]) + "s"))
        lines.append("record shape: " + shape(records, -1))
        lines.append("sample record %s[0]: %s" % (where, q(json.dumps(records[0], ensure_ascii=False), 400)))
        lines.append("read it with: data = json.load(open(%s)); records = %s" % (q(name), where))
        table = lines_table(records)
        if table:
            lines.append("one row per entry of %s, with its record's fields: df = %s (columns: %s)"
                         % (q(table[0], 40), table[1], ", ".join(table[2][:16])))
        lines.extend("field " + note for note in quantity_notes(record_fields(records), "record", table is not None))
        what = "list" if key == "" else "object with key %s" % json.dumps(key)
        summary = "%s: %s records %s" % (what, n(len(records)), shape(records, -1, brief=True))
    elif isinstance(data, dict):
        lines.append("shape: " + shape(data))
        summary = "object %s" % shape(data, brief=True)
    return summary, "\n".join(lines)


def keep_record_fields(name, records):
    """Keeps the records' keys (with a type and a sample value) for the agent."""
    dicts = [r for r in records if isinstance(r, dict)]
    if not dicts:
        return
    fields = []
    for k, vals in merged_keys(dicts).items():
        kinds = {tname(v) for v in vals}
        sample = next((v for v in vals if isinstance(v, (str, int, float)) and not isinstance(v, bool)), "")
        fields.append((str(k), kinds.pop() if len(kinds) == 1 else "mixed", str(sample), ""))
    keep_fields(name, fields)


def profile_jsonl(name, path, size, lines_head):
    records = []
    for line in lines_head[:200]:
        if line.strip():
            records.append(json.loads(line))
    keep_record_fields(name, records)
    total, exact = count_lines(path, size)
    summary = "JSON lines: %s%s records %s" % ("" if exact else "≥", n(total), shape(records, -1, brief=True))
    keys = {}
    for r in records if all(isinstance(r, dict) for r in records) else []:
        for k, v in r.items():
            keys.setdefault(k, []).append(v)
    dicts = len(records)
    partial = ["  %s: in %d of the first %d records" % (k, len(v), dicts) for k, v in keys.items() if len(v) < dicts][:8]
    values = field_values({k: [v for v in vs if isinstance(v, (str, int, float)) and not isinstance(v, bool)] for k, vs in keys.items()})
    text = "\n".join([
        "JSON lines (one JSON value per line), %s lines%s, %s bytes" % (n(total), "" if exact else " or more", n(size)),
        "record shape: " + shape(records, -1),
        "first record: " + q(json.dumps(records[0], ensure_ascii=False), 400),
        "read it with: records = [json.loads(line) for line in open(%s) if line.strip()]" % q(name),
    ] + (["fields missing from some records (use record.get(key)):"] + partial if partial else [])
      + (["values in the first %d records:" % dicts] + values if values else []))
    return summary, text
