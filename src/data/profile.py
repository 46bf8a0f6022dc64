# code-agent input profiler. Runs INSIDE the sandbox, as the program, over the input files in the
# work dir (untrusted: never parsed on the host). Prints one JSON object on stdout:
#   {"files": [{"name": str, "summary": str, "text": str, "rows"?: [[str]]}, ...]}
# `rows` (tables only: CSV/TSV, a workbook's first sheet) are the first rows as cells, for a preview.
# `summary` is one line ("object with key "orders": 1,204 records {id, …}"), `text` a few lines the
# model reads. Every read is bounded (bytes read, lines sampled, time per file, characters out), so a
# huge, sparse or hostile file cannot hang it; file text is always quoted (repr), never echoed bare.
# One file on purpose: it is sent whole as the program of one sandbox execution.
import csv
import io
import json
import os
import re
import signal
import zipfile

HEAD_BYTES = 64 * 1024          # bytes read to sniff a file
COUNT_BYTES = 256 * 1024 * 1024  # most bytes scanned to count lines
JSON_PARSE_BYTES = 16 * 1024 * 1024  # larger JSON is not parsed whole
FILE_SECONDS = 4                # time budget per file
TOTAL_SECONDS = 12              # no new file is started after this (the execution's limit is 20 s)
FILE_CHARS = 1500               # longest text per file
LINE_CHARS = 160                # longest quoted line or value
SAMPLE_ROWS = 3
TYPE_ROWS = 500                 # rows read to infer column types
ZIP_MAX_EXPANDED = 64 * 1024 * 1024  # a workbook that expands to more is not opened
PREVIEW_ROWS = 6                # rows of a table kept for its preview (a header row included)
PREVIEW_COLUMNS = 12            # columns kept for a preview
PREVIEW_CELL_CHARS = 40         # longest cell of a preview

PREVIEWS = {}                   # file name -> the first rows of a table, as cells


def keep_preview(name, rows):
    PREVIEWS[name] = [[q_cell(c) for c in r[:PREVIEW_COLUMNS]] for r in rows[:PREVIEW_ROWS]]


def q_cell(v):
    text = "" if v is None else str(v)
    text = "".join(c if c.isprintable() else " " for c in text)
    return text if len(text) <= PREVIEW_CELL_CHARS else text[:PREVIEW_CELL_CHARS - 1] + "…"


class OutOfTime(Exception):
    pass


def _alarm(_sig, _frame):
    raise OutOfTime()


def q(text, limit=LINE_CHARS):
    """A quoted, bounded rendering of untrusted text."""
    text = str(text)
    if len(text) > limit:
        return repr(text[:limit]) + "…"
    return repr(text)


def n(count):
    return "{:,}".format(count)


def count_lines(path, size):
    """(lines, exact): newline count of the first COUNT_BYTES, exact when the file is no larger."""
    lines = 0
    last = b"\n"
    with open(path, "rb") as f:
        read = 0
        while read < COUNT_BYTES:
            chunk = f.read(1 << 20)
            if not chunk:
                break
            read += len(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    if last != b"\n":
        lines += 1
    return lines, size <= COUNT_BYTES


def decode(head):
    """(text, encoding) of a file's head, or (None, None) for binary data."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return head[:len(head) - len(head) % 2].decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            return None, None
    if b"\x00" in head[:8192]:
        return None, None
    try:
        return head.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4:  # a character cut at the end of the head
            try:
                return head[:exc.start].decode("utf-8"), "UTF-8"
            except UnicodeDecodeError:
                pass
    text = head.decode("cp1252", "replace")
    printable = sum(1 for c in text if c.isprintable() or c in "\r\n\t")
    return (text, "cp1252 (not UTF-8: pass encoding='cp1252')") if printable >= 0.97 * len(text) else (None, None)


# ---------- JSON ----------

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


def profile_jsonl(name, path, size, lines_head):
    records = []
    for line in lines_head[:200]:
        if line.strip():
            records.append(json.loads(line))
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


# ---------- CSV / TSV ----------

def cell_type(v):
    v = v.strip()
    if v == "":
        return "empty"
    if re.fullmatch(r"[-+]?\d+", v):
        return "int"
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", v):
        return "float"
    if re.fullmatch(r"\d{4}-\d{2}(-\d{2}([ T]\d{2}:\d{2}(:\d{2})?.*)?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}", v):
        return "date"
    if v.lower() in ("true", "false", "yes", "no"):
        return "bool"
    return "str"


def column_type(values):
    kinds = {cell_type(v) for v in values} - {"empty"}
    if not kinds:
        return "empty"
    if kinds == {"int"}:
        return "int"
    if kinds <= {"int", "float"}:
        return "float"
    if len(kinds) == 1:
        return kinds.pop()
    return "str"


def has_header(rows):
    """The first row is a header when its cells are text where later rows hold numbers, or it repeats nothing."""
    if len(rows) < 2:
        return any(cell_type(c) == "str" for c in rows[0]) if rows else False
    first, rest = rows[0], rows[1:]
    votes = 0
    for i, cell in enumerate(first):
        col = [r[i] for r in rest if i < len(r)]
        kind = column_type(col)
        if kind in ("int", "float", "date", "bool") and cell_type(cell) == "str":
            votes += 1
        elif kind in ("int", "float", "date") and cell_type(cell) == kind:
            votes -= 1
        elif kind == "str" and cell_type(cell) == "str" and cell in col:
            votes -= 1
    if votes != 0:
        return votes > 0
    if all(cell_type(c) == "str" for c in first) and len(set(first)) == len(first):
        return True  # all text, no clue either way: exports name their columns far more often than not
    try:
        return csv.Sniffer().has_header("\n".join(",".join(r) for r in rows[:20]))
    except csv.Error:
        return False


NA_TEXT = {"", "n/a", "na", "nan", "null", "none", "-", "--", "?"}
EN_NUMBER = re.compile(r"[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?")
DE_NUMBER = re.compile(r"[-+]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?")
OFFSET_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})")
DOTTED_DATE = re.compile(r"\d{2}\.\d{2}\.\d{4}")


def column_note(ref, values, kind):
    """How to read a column whose text a plain read gets wrong: numbers typed as text (currency
    signs, thousands separators, n/a, a decimal comma), date-times with several UTC offsets, dd.mm.yyyy
    dates. `ref` is how a program names the column (df['amount']). Empty when nothing is special."""
    cells = [v.strip() for v in values]
    present = [c for c in cells if c.lower() not in NA_TEXT]
    if not present:
        return ""
    na = sorted({c for c in cells if c.lower() in NA_TEXT and c})
    if kind == "str":
        bare = [re.sub(r"[\s$€£¥]|USD|EUR", "", c) for c in present]
        examples = ", ".join(q(c, 20) for c in sorted(set(present), key=lambda c: (-len(c), c))[:3] + na[:1])
        if all(EN_NUMBER.fullmatch(b) for b in bare) and any("," in b or b != c for b, c in zip(bare, present)):
            return ("numbers typed as text, e.g. %s (',' separates thousands%s): convert with "
                    "pandas.to_numeric(%s.astype(str).str.replace(r'[^0-9.+-]', '', regex=True), errors='coerce')"
                    % (examples, "; %s means no value" % "/".join(q(x, 8) for x in na[:2]) if na else "", ref))
        if all(DE_NUMBER.fullmatch(b) for b in bare) and any("," in b for b in bare):
            return ("numbers with a decimal comma, e.g. %s ('.' separates thousands): convert with "
                    "pandas.to_numeric(%s.astype(str).str.replace(r'[^0-9,+-]', '', regex=True).str.replace(',', '.'), errors='coerce')"
                    % (examples, ref))
    if kind in ("date", "str"):
        if all(OFFSET_TIME.fullmatch(c) for c in present):
            offsets = sorted({OFFSET_TIME.fullmatch(c).group(3) for c in present})
            if len(offsets) > 1:
                return ("date-times with different UTC offsets (%s): pandas.to_datetime(%s, utc=True) gives each as a "
                        "UTC time (compare, subtract and group those); the date and time as written are local"
                        % (", ".join(q(o, 8) for o in offsets[:5]), ref))
        if all(DOTTED_DATE.fullmatch(c) for c in present):
            return "dates as day.month.year: pandas.to_datetime(%s, format='%%d.%%m.%%Y'); sort by the date, not the text" % ref
    return ""


QUANTITY_NAME = re.compile(r"(?:n_|num_)?(?:qty|quantity|quantities|units?|pieces|pcs|items?|item_count)", re.I)
PRICE_NAME = re.compile(r"(?:unit_?)?(?:price|cost)(?:_each|_per_unit)?|unit_?price", re.I)
KEY_NAME = re.compile(r"(?:^|[_\s-])(?:id|key|code|sku|uuid|email)$|^(?:id|key|code|sku|uuid|email)$|[a-z]Id$", re.I)


def quantity_notes(fields, unit, table=False):
    """What counting means where a numeric field holds a quantity, as the call that counts it.
    `fields` are (name, type) pairs, a field of a record's list of objects named 'lines[].qty';
    `unit` is what a row is ('row' of the table read as df, or 'record' of a JSON list); `table`
    says the profile gives a table `df` of the list's entries. How many items or units is the sum
    of the quantity, not the number of rows; with a price beside it, revenue is price × quantity."""
    numeric = [f for f, t in fields if t in ("int", "float")]
    parent = lambda f: f.split("[].")[0] if "[]." in f else None
    base = lambda f: f.split("[].")[-1]
    out = []
    for f in numeric:
        if not QUANTITY_NAME.fullmatch(base(f)):
            continue
        price = next((p for p in numeric if PRICE_NAME.fullmatch(base(p)) and parent(p) == parent(f)), None)
        qf, pf = q(base(f), 40), q(base(price), 40) if price else None
        if unit == "row" or (parent(f) and table):  # a DataFrame df: the table read, or the entries' table
            how = ("df[%s].sum() (per group: df.groupby(column)[%s].sum()), never len(df), count() or value_counts(), "
                   "which count rows" % (qf, qf))
            revenue = "(df[%s] * df[%s]).sum()" % (pf, qf) if price else ""
        elif parent(f) is None:
            how = "sum(r[%s] for r in records), not len(records)" % qf
            revenue = "sum(r[%s] * r[%s] for r in records)" % (pf, qf) if price else ""
        else:
            lst = q(parent(f), 40)
            how = "sum(e[%s] for r in records for e in r[%s]), not the number of records or entries" % (qf, lst)
            revenue = "sum(e[%s] * e[%s] for r in records for e in r[%s])" % (pf, qf, lst) if price else ""
        out.append("%s counts items: how many items or units is %s%s" % (
            f if parent(f) else q(f, 40), how, "; revenue, sales or an amount: %s" % revenue if revenue else ""))
    return out[:2]


def repeat_notes(names, body, complete):
    """Rows that repeat an earlier row, and id columns with a few repeated values (a lookup table
    listing one thing twice makes a merge count the other file's rows twice)."""
    where = "" if complete else " in the first %d rows" % len(body)
    out = []
    seen = set()
    repeated = 0
    for r in body:
        key = tuple(c.strip() for c in r)
        repeated += key in seen
        seen.add(key)
    if repeated:
        out.append("%d row%s an earlier row exactly%s: drop them (df.drop_duplicates()) unless each row is a separate event"
                   % (repeated, " repeats" if repeated == 1 else "s repeat", where))
    for i, col in enumerate(names):
        vals = [r[i].strip() for r in body if i < len(r) and r[i].strip()]
        distinct = len(set(vals))
        if KEY_NAME.search(col) and len(vals) >= 5 and 0.8 * len(vals) <= distinct < len(vals):
            out.append("column %s is an id with repeats (%d distinct in %d rows%s): a thing listed more than once; a merge "
                       "on it counts the other file's rows once per repeat: df = df.drop_duplicates(%s, keep='last') first"
                       % (q(col, 40), distinct, len(vals), where, q(col, 40)))
    return out[:3]


def profile_table(name, path, size, text_head, delimiter):
    head_lines = text_head.splitlines()
    if len(text_head.encode("utf-8", "replace")) >= HEAD_BYTES and len(head_lines) > 1:
        head_lines = head_lines[:-1]  # the last line may be cut
    rows = [r for r in csv.reader(head_lines[:TYPE_ROWS + 1], delimiter=delimiter) if r]
    header = has_header(rows)
    names = rows[0] if header else ["column %d" % (i + 1) for i in range(max(len(r) for r in rows))]
    body = rows[1:] if header else rows
    total, exact = count_lines(path, size)
    data_rows = max(total - (1 if header else 0), 0)
    kind = {",": "CSV", "\t": "TSV", ";": "CSV (semicolons)", "|": "CSV (pipes)"}[delimiter]
    cols = []
    notes = []
    for i, col_name in enumerate(names[:40]):
        vals = [r[i] for r in body if i < len(r)]
        t = column_type(vals)
        empty = sum(1 for v in vals if not v.strip())
        label = q(col_name, 40) if header else "[%d]" % i
        cols.append("%s (%s%s)" % (label, t, ", %d empty in the first %d rows" % (empty, len(vals)) if empty else ""))
        note = column_note("df[%s]" % (q(col_name, 40) if header else i), vals, t)
        if note:
            notes.append("column %s: %s" % (label, note))
    more = " … %d more" % (len(names) - 40) if len(names) > 40 else ""
    rows_text = "%s%s data rows" % ("" if exact else "≥", n(data_rows))
    lines = [
        "%s, delimiter %s, %s, %d columns, %s bytes" % (kind, q(delimiter), rows_text, len(names), n(size)),
        ("header row: yes (the first line names the columns)" if header
         else "header row: NO (the first line is data; read it with header=None / csv.reader)"),
        ("columns: " if header else "columns by position (df[0], df[1]… after header=None): ") + ", ".join(cols) + more,
        "first rows:",
    ]
    keep_preview(name, rows)
    for r in (rows[:SAMPLE_ROWS + 1] if header else rows[:SAMPLE_ROWS]):
        lines.append("  " + q(delimiter.join(r)))
    args = [q(name)] + ([] if delimiter == "," else ["sep=%s" % q(delimiter)]) + ([] if header else ["header=None"])
    lines.append("read it with: df = pandas.read_csv(%s)" % ", ".join(args))
    if not header:
        lines.append("with header=None the columns are the numbers 0 to %d (df[2], never df['2']); when the request says what "
                     "they are, name them: pandas.read_csv(%s, names=[%s])"
                     % (len(names) - 1, ", ".join(args), ", ".join("'…'" for _ in names[:8]) + (", …" if len(names) > 8 else "")))
    lines.extend(notes)
    if header:
        types = [column_type([r[i] for r in body if i < len(r)]) for i in range(len(names))]
        lines.extend("column " + note for note in quantity_notes(list(zip(names, types)), "row"))
        lines.extend(repeat_notes(names, body, len(body) >= data_rows))
    summary = "%s: %s, %s: %s" % (kind, rows_text, "columns" if header else "no header, columns",
                                   ", ".join(c for c in names[:12]) + (" …" if len(names) > 12 else "") if header
                                   else ", ".join(column_type([r[i] for r in body if i < len(r)]) for i in range(min(len(names), 12))))
    return summary, "\n".join(lines)


def sniff_delimiter(name, lines):
    ext = name.lower().rsplit(".", 1)[-1]
    if ext == "tsv" or ext == "tab":
        return "\t"
    sample = [l for l in lines[:50] if l.strip()]
    if len(sample) < (1 if ext == "csv" else 2):
        return None
    best = None
    for d in ("\t", ",", ";", "|"):
        counts = [len(next(csv.reader([l], delimiter=d))) for l in sample]
        if counts[0] > 1 and all(c == counts[0] for c in counts):
            if best is None or counts[0] > best[1]:
                best = (d, counts[0])
    if best is None and ext == "csv":
        return ","
    return best[0] if best else None


# ---------- text and logs ----------

LOGFMT_PAIR = re.compile(r'([A-Za-z_][\w.]*)=("[^"]*"|\S*)')
LOGFMT_LINE = re.compile(r'\s*(?:[A-Za-z_][\w.]*=(?:"[^"]*"|\S*)\s*)+')


def num_text(x):
    return str(int(x)) if x == int(x) else "%g" % x


def numeric_field(vals):
    """True when every value of a field is a number ('-' or empty for none), at least one of them."""
    present = [str(v) for v in vals if str(v) not in ("-", "")]
    return bool(present) and all(re.fullmatch(r"[-+]?\d+(\.\d+)?", v) for v in present)


def field_values(fields):
    """One line per field (name -> values seen in the sample): the few values of a field that
    has few (with counts), or the numbers of a numeric one (to compare as numbers, not text)."""
    out = []
    for name, vals in list(fields.items())[:16]:
        vals = [v for v in vals if v is not None]
        if not vals:
            continue
        distinct = {}
        for v in vals:
            distinct[v] = distinct.get(v, 0) + 1
        nums = [float(v) for v in vals if re.fullmatch(r"[-+]?\d+(\.\d+)?", str(v))]
        numeric = nums and all(str(v) == "-" or re.fullmatch(r"[-+]?\d+(\.\d+)?", str(v)) for v in vals)
        if numeric and len(distinct) > 8:
            out.append("  %s: numbers (%s to %s%s): compare and sort them as numbers (int()/float()), not as text"
                       % (name, num_text(min(nums)), num_text(max(nums)), "; '-' means none" if len(nums) < len(vals) else ""))
        elif len(distinct) <= 8 and len(vals) > len(distinct):
            ranked = sorted(distinct.items(), key=lambda kv: -kv[1])
            out.append("  %s: %s" % (name, ", ".join("%s (%d)" % (q(v, 30), c) for v, c in ranked)))
    return out


def profile_logfmt(name, total, exact, size, sample):
    fields = {}
    for line in sample:
        for k, v in LOGFMT_PAIR.findall(line):
            fields.setdefault(k, []).append(v.strip('"'))
    keys = list(fields)
    out = [
        "text, %s%s lines, %s bytes" % ("" if exact else "≥", n(total), n(size)),
        "format: key=value pairs (logfmt); keys: %s" % ", ".join(keys[:20]),
        "read it with: df = pandas.DataFrame([{k: v.strip('\"') for k, v in re.findall(r'(\w[\w.]*)=(\"[^\"]*\"|\S*)', line)} "
        "for line in open(%s, encoding='utf-8', errors='replace') if line.strip()])%s" % (q(name), "".join(
            "; df[%s] = pandas.to_numeric(df[%s], errors='coerce')" % (q(k), q(k)) for k in keys if numeric_field(fields[k]))),
        "select rows by a field's value (%s), never by a word anywhere in the line" % (
            "df[df['level'] == 'error']" if "level" in keys else "df[df[%s] == …]" % q(keys[0]) if keys else "a field"),
        "values in the first %d lines:" % len(sample),
    ] + field_values(fields)
    summary = "key=value log, %s%s lines {%s}" % ("" if exact else "≥", n(total), ", ".join(keys[:12]))
    return summary, out

LOG_FORMATS = [
    ("Apache/nginx combined log", ["ip", "ident", "user", "time", "request", "status", "bytes", "referer", "agent"],
     r'^(\S+) (\S+) (\S+) \[([^\]]+)\] "([^"]*)" (\d{3}) (\S+) "([^"]*)" "([^"]*)"'),
    ("Apache/nginx common log", ["ip", "ident", "user", "time", "request", "status", "bytes"],
     r'^(\S+) (\S+) (\S+) \[([^\]]+)\] "([^"]*)" (\d{3}) (\S+)\s*$'),
    ("syslog", ["time", "host", "program", "message"],
     r'^([A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}) (\S+) ([^:\[]+)(?:\[\d+\])?: (.*)$'),
    ("timestamped log (ISO time, level, message)", ["time", "level", "message"],
     r'^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}\S*)\s+\[?(DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL|TRACE)\]?\s+(.*)$'),
]


NUMERIC_LOG_FIELDS = ("status", "bytes")


def named_groups(pattern, fields):
    """The pattern with its capturing groups named after the fields, in order."""
    names = iter(fields)
    return re.sub(r"(?<!\\)\((?!\?)", lambda _m: "(?P<%s>" % next(names), pattern)


# how the time field of a format is written (as pandas.to_datetime's format), where it has a year
LOG_TIME_FORMATS = {"Apache/nginx combined log": "%d/%b/%Y:%H:%M:%S %z", "Apache/nginx common log": "%d/%b/%Y:%H:%M:%S %z",
                    "timestamped log (ISO time, level, message)": None}


def log_read_line(name, fmt, fields, pattern):
    """A line that reads every matching line of a log into a DataFrame with one column per field:
    numbers as numbers, the time as a date-time where the format's time has a year."""
    numeric = "".join("; df[%s] = pandas.to_numeric(df[%s], errors='coerce')" % (q(f), q(f)) for f in fields if f in NUMERIC_LOG_FIELDS)
    if "request" in fields:  # 'GET /api/x?y=1 HTTP/1.1': its method and path (NaN where the request is '-')
        numeric += "; df['method'] = df['request'].str.split(' ').str[0]; df['path'] = df['request'].str.split(' ').str[1]"
    if fmt in LOG_TIME_FORMATS:
        given = LOG_TIME_FORMATS[fmt]
        numeric += "; df['time'] = pandas.to_datetime(df['time']%s)" % (", format=%s" % q(given) if given else "")
    # the patterns are ours and hold no single quote: a raw literal shows them as the regex reads them
    return ("read it with: rx = re.compile(r'%s'); df = pandas.DataFrame([m.groupdict() for m in map(rx.match, "
            "open(%s, encoding='utf-8', errors='replace')) if m])%s" % (named_groups(pattern, fields), q(name), numeric))


def log_select_line(fields):
    """How to select lines: by a parsed field, with an example on the field that usually decides."""
    example = "df[df['status'] // 100 == 4]" if "status" in fields else "df[df['level'] == 'ERROR']" if "level" in fields else "df[df['program'] == 'sshd']"
    return "select rows by a field (%s), never by a number or word found anywhere in the line" % example


def profile_text(name, path, size, text_head):
    lines = text_head.splitlines()
    total, exact = count_lines(path, size)
    sample = [l for l in lines[:200] if l.strip()]
    out = ["text, %s%s lines, %s bytes" % ("" if exact else "≥", n(total), n(size))]
    summary = "text, %s%s lines" % ("" if exact else "≥", n(total))
    if sample and sum(1 for l in sample if LOGFMT_LINE.fullmatch(l) and "=" in l) >= max(1, int(len(sample) * 0.8)):
        summary, out = profile_logfmt(name, total, exact, size, sample)
    for fmt, fields, pattern in LOG_FORMATS if len(out) == 1 else []:
        rx = re.compile(pattern)
        hits = sum(1 for l in sample if rx.match(l))
        if sample and hits >= max(1, int(len(sample) * 0.8)):
            out.append("format: %s; %d of the first %d lines match; fields: %s" % (fmt, hits, len(sample), ", ".join(fields)))
            out.append(log_read_line(name, fmt, fields, pattern))
            out.append(log_select_line(fields))
            m = next(rx.match(l) for l in sample if rx.match(l))
            out.append("first line parsed: " + ", ".join("%s=%s" % (f, q(v, 60)) for f, v in zip(fields, m.groups())))
            parsed = [rx.match(l).groups() for l in sample if rx.match(l)]
            values = field_values({f: [g[i] for g in parsed] for i, f in enumerate(fields) if f in ("status", "bytes", "level", "method", "program")})
            if values:
                out.append("values of some fields in the first %d lines:" % len(sample))
                out.extend(values)
            summary = "%s, %s%s lines {%s}" % (fmt, "" if exact else "≥", n(total), ", ".join(fields))
            break
    out.append("first lines:")
    for l in lines[:SAMPLE_ROWS + 2]:
        out.append("  " + q(l))
    return summary, "\n".join(out)


# ---------- binary formats ----------

def zip_expanded(path):
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        return sum(i.file_size for i in infos), len(infos)


def profile_excel(name, path, size, is_zip):
    kind = "an Excel workbook"
    if is_zip:
        try:
            expanded, entries = zip_expanded(path)
        except zipfile.BadZipFile as exc:
            return kind + " (damaged)", "%s, %s bytes: not readable (%s)" % (kind, n(size), exc)
        if expanded > ZIP_MAX_EXPANDED or entries > 10000:
            why = "it expands to %s bytes in %s parts" % (n(expanded), n(entries))
            return "%s (not opened: %s)" % (kind, why), "%s, %s bytes: not opened here: %s" % (kind, n(size), why)
    try:
        sheets = read_xlsx(path) if is_zip else read_xls(path)
    except OutOfTime:
        raise
    except Exception as exc:  # no reader installed, or a workbook it cannot read
        why = "could not be read here: %s" % q("%s: %s" % (type(exc).__name__, exc), 120)
        return "%s (%s)" % (kind, why), "%s, %s bytes (%s); read it with pandas.read_excel" % (kind, n(size), why)
    lines = ["%s, %s bytes, %d sheet%s" % (kind, n(size), len(sheets), "" if len(sheets) == 1 else "s")]
    if sheets and sheets[0][3]:
        keep_preview(name, sheets[0][3])
    for title, rows, first, _ in sheets[:10]:
        lines.append("sheet %s: %s rows; first row: %s" % (q(title, 40), n(rows), q(first, 200)))
    summary = "Excel workbook: " + ", ".join("sheet %s %s rows" % (q(t, 30), n(r)) for t, r, _, _ in sheets[:5])
    header = [str(c) for c in (sheets[0][2] if sheets else []) if c is not None and str(c).strip()]
    if header:  # the first sheet's first row: its column names when it has a header
        summary += "; first row: " + ", ".join(q_cell(c) for c in header[:12]) + (" …" if len(header) > 12 else "")
    return summary, "\n".join(lines)


def read_xlsx(path):
    import openpyxl
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    out = []
    for i, ws in enumerate(wb.worksheets[:10]):
        top = [list(r) for r in ws.iter_rows(min_row=1, max_row=PREVIEW_ROWS if i == 0 else 1, values_only=True)]
        out.append((ws.title, ws.max_row or 0, (top[0] if top else [])[:30], top if i == 0 else []))
    return out


def read_xls(path):
    import xlrd
    wb = xlrd.open_workbook(path, on_demand=True)
    out = []
    for i in range(min(wb.nsheets, 10)):
        sh = wb.sheet_by_index(i)
        top = [sh.row_values(r) for r in range(min(sh.nrows, PREVIEW_ROWS if i == 0 else 1))]
        out.append((sh.name, sh.nrows, (top[0] if top else [])[:30], top if i == 0 else []))
    return out


def profile_parquet(name, path, size):
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        return "Parquet file (could not be read here: %s)" % exc, "Parquet file, %s bytes (could not be read here: %s)" % (n(size), exc)
    f = pq.ParquetFile(path)
    cols = ", ".join("%s (%s)" % (q(fld.name, 40), fld.type) for fld in f.schema_arrow)
    return ("Parquet: %s rows {%s}" % (n(f.metadata.num_rows), ", ".join(fl.name for fl in f.schema_arrow)),
            "Parquet, %s rows, %s bytes\ncolumns: %s" % (n(f.metadata.num_rows), n(size), cols))


def profile_pdf(name, path, size):
    try:
        import pypdf
    except ImportError as exc:
        return "PDF (could not be read here: %s)" % exc, "PDF, %s bytes (could not be read here: %s)" % (n(size), exc)
    reader = pypdf.PdfReader(path)
    pages = len(reader.pages)
    first = (reader.pages[0].extract_text() or "").splitlines()[:5] if pages else []
    return "PDF, %d pages" % pages, "PDF, %d pages, %s bytes\nfirst lines:\n%s" % (pages, n(size), "\n".join("  " + q(l) for l in first))


def image_size(head):
    import struct
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
        return "PNG", struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF", struct.unpack("<HH", head[6:10])
    if head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return "BMP", (w, abs(h))
    if head.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(head):
            if head[i] != 0xFF:
                i += 1
                continue
            marker = head[i + 1]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", head[i + 5:i + 9])
                return "JPEG", (w, h)
            i += 2 + struct.unpack(">H", head[i + 2:i + 4])[0]
        return "JPEG", None
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP", None
    return None, None


MAGIC = [(b"\x1f\x8b", "gzip-compressed data"), (b"BZh", "bzip2-compressed data"), (b"\xfd7zXZ", "xz-compressed data"),
         (b"PK\x03\x04", "a zip archive"), (b"SQLite format 3\x00", "an SQLite database"), (b"\x7fELF", "an ELF executable"),
         (b"7z\xbc\xaf", "a 7z archive")]


def profile_binary(name, path, size, head):
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    if head.startswith(b"PK\x03\x04") and ext in ("xlsx", "xlsm"):
        return profile_excel(name, path, size, True)
    if head.startswith(b"\xd0\xcf\x11\xe0") and ext == "xls":
        return profile_excel(name, path, size, False)
    if head.startswith(b"PAR1"):
        return profile_parquet(name, path, size)
    if head.startswith(b"%PDF"):
        return profile_pdf(name, path, size)
    fmt, dims = image_size(head)
    if fmt:
        size_text = "%d×%d pixels" % dims if dims else "size unknown"
        return "%s image, %s" % (fmt, size_text), "%s image, %s, %s bytes" % (fmt, size_text, n(size))
    guess = next((what for magic, what in MAGIC if head.startswith(magic)), "binary data of unknown type")
    return "%s, %s bytes" % (guess, n(size)), "%s, %s bytes (not text)" % (guess, n(size))


# ---------- dispatch ----------

def profile_file(name):
    path = os.path.join(os.getcwd(), name)
    if not os.path.isfile(path):
        return "missing", "not found in the work dir"
    size = os.path.getsize(path)
    if size == 0:
        return "empty file", "empty file (0 bytes)"
    with open(path, "rb") as f:
        head = f.read(HEAD_BYTES)
    text, encoding = decode(head)
    if text is None:
        return profile_binary(name, path, size, head)
    if encoding != "UTF-8":
        summary, detail = profile_text_file(name, path, size, head, text)
        return summary, "encoding: %s\n%s" % (encoding, detail)
    return profile_text_file(name, path, size, head, text)


def profile_text_file(name, path, size, head, text):
    if text.startswith("\ufeff"):
        text = text[1:]
    stripped = text.lstrip()
    lines = text.splitlines()
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    if stripped[:1] in ("{", "["):
        first = next((l for l in lines if l.strip()), "")
        try:
            if ext == "jsonl" or ext == "ndjson" or (first.strip().endswith(("}", "]")) and len([l for l in lines if l.strip()]) > 1
                                                      and json.loads(first) is not None and stripped[:1] == "{"):
                return profile_jsonl(name, path, size, lines if len(head) < HEAD_BYTES else lines[:-1])
        except ValueError:
            pass
        try:
            return profile_json(name, path, size, text)
        except ValueError as exc:
            if ext == "json":
                return "JSON that does not parse: %s" % exc, "JSON that does not parse (%s); first characters: %s" % (exc, q(text[:300]))
    delimiter = sniff_delimiter(name, lines if len(head) < HEAD_BYTES else lines[:-1])
    if delimiter is not None:
        return profile_table(name, path, size, text, delimiter)
    return profile_text(name, path, size, text)


def _main(names):
    import time
    signal.signal(signal.SIGALRM, _alarm)
    out = []
    started = time.monotonic()
    for name in names:
        if time.monotonic() - started > TOTAL_SECONDS:
            out.append({"name": name, "summary": "not profiled (time spent on other files)", "text": "not profiled: the time for profiling was spent on other files"})
            continue
        signal.alarm(FILE_SECONDS)
        try:
            summary, text = profile_file(name)
        except OutOfTime:
            summary, text = "not profiled (it took too long)", "not profiled: it took longer than %d s" % FILE_SECONDS
        except Exception as exc:  # a file the profiler cannot read is described, never fatal
            summary, text = "not profiled (%s)" % type(exc).__name__, "not profiled: %s" % q("%s: %s" % (type(exc).__name__, exc))
        finally:
            signal.alarm(0)
        summary = "".join(c if c.isprintable() else "?" for c in summary[:300])
        text = "".join(c if c.isprintable() or c == "\n" else "?" for c in text[:FILE_CHARS])
        entry = {"name": name, "summary": summary, "text": text[:FILE_CHARS]}
        if name in PREVIEWS:
            entry["rows"] = PREVIEWS[name]
        out.append(entry)
    print(json.dumps({"files": out}, ensure_ascii=False))
