# code-agent input profiler, part 3 of 6: CSV and TSV (delimiter, header, column types, what a plain
# read gets wrong, quantities, repeated rows and ids).

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
    of the quantity, not the number of rows; with a price beside it, a second note says that
    revenue is price × quantity of each row, summed (per group too: the per-group call for the
    quantity alone was copied for 'sales per category')."""
    numeric = [f for f, t in fields if t in ("int", "float")]
    parent = lambda f: f.split("[].")[0] if "[]." in f else None
    base = lambda f: f.split("[].")[-1]
    out = []
    for f in numeric:
        if not QUANTITY_NAME.fullmatch(base(f)):
            continue
        price = next((p for p in numeric if PRICE_NAME.fullmatch(base(p)) and parent(p) == parent(f)), None)
        qf, pf = q(base(f), 40), q(base(price), 40) if price else None
        name = lambda g: g if parent(g) else q(g, 40)
        if unit == "row" or (parent(f) and table):  # a DataFrame df: the table read, or the entries' table
            how = ("df[%s].sum() (per group: df.groupby(column)[%s].sum()), never len(df), count() or value_counts(), "
                   "which count rows" % (qf, qf))
            revenue = ("df['amount'] = df[%s] * df[%s], then df['amount'].sum() (per group: "
                       "df.groupby(column)['amount'].sum())" % (pf, qf)) if price else ""
        elif parent(f) is None:
            how = "sum(r[%s] for r in records), not len(records)" % qf
            revenue = "sum(r[%s] * r[%s] for r in records)" % (pf, qf) if price else ""
        else:
            lst = q(parent(f), 40)
            how = "sum(e[%s] for r in records for e in r[%s]), not the number of records or entries" % (qf, lst)
            revenue = "sum(e[%s] * e[%s] for r in records for e in r[%s])" % (pf, qf, lst) if price else ""
        out.append("%s counts items: how many items or units is %s" % (name(f), how))
        if revenue:
            out.append("%s is a price: revenue, sales or an amount is price × quantity of each row, summed: %s; "
                       "never a sum of %s or of %s alone" % (name(price), revenue, qf, pf))
    return out[:4]


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
    fields = []
    for i, col_name in enumerate(names[:40]):
        vals = [r[i] for r in body if i < len(r)]
        t = column_type(vals)
        empty = sum(1 for v in vals if not v.strip())
        label = q(col_name, 40) if header else "[%d]" % i
        cols.append("%s (%s%s)" % (label, t, ", %d empty in the first %d rows" % (empty, len(vals)) if empty else ""))
        note = column_note("df[%s]" % (q(col_name, 40) if header else i), vals, t)
        if note:
            notes.append("column %s: %s" % (label, note))
        fields.append((col_name if header else i, t, next((v.strip() for v in vals if v.strip()), ""), note))
    keep_fields(name, fields, header)
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
