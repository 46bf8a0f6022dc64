"""Runs one read-only SQLite query for the SQL tool, on the host, in its own process.

Reads a JSON request on stdin: {"path", "sql", "params", "maxRows", "maxBytes", "timeoutMs"}.
Writes one JSON object on stdout: {"columns", "rows", "truncated", "note"?, "bytes"} or
{"error", "rule"?, "timedOut"?}.

The file is opened read-only (mode=ro) with query_only on; an authorizer lets through reading
(SELECT, columns, functions but load_extension, recursive CTEs, a few schema pragmas) and
refuses everything else (writes, DDL, ATTACH, PRAGMA, transactions); sqlite3 refuses several
statements; a progress handler stops the query at its time limit.
"""
import base64
import json
import math
import re
import resource
import sqlite3
import sys
import time
from urllib.request import pathname2url

# schema pragmas a query may read as table-valued functions (pragma_table_info('t')…)
SCHEMA_PRAGMAS = ("table_info", "table_xinfo", "table_list", "index_list", "index_info", "foreign_key_list")
DENIED_FUNCTIONS = {"load_extension", "fts3_tokenizer", "readfile", "writefile", "edit"}
ALLOWED_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
ACTION_NAMES = {v: k[len("SQLITE_"):] for k, v in vars(sqlite3).items() if k.startswith("SQLITE_") and isinstance(v, int) and k not in ("SQLITE_OK", "SQLITE_DENY", "SQLITE_IGNORE")}
BATCH_ROWS = 1000
SAFE_INT = 2 ** 53
SPECIAL_FLOATS = ("NaN", "Infinity", "-Infinity")
# the first word after comments; statements the authorizer never sees (REINDEX) stop here
FIRST_WORD = re.compile(r"\s*(?:(?:--[^\n]*(?:\n|$)|/\*.*?\*/)\s*)*(\w*)", re.S)
READ_WORDS = ("select", "with", "values", "explain")
# a table-valued pragma (pragma_database_list): SQLite first makes its table, which the authorizer
# sees as a write to sqlite_master; the refusal names the pragma instead
TABLE_PRAGMA = re.compile(r"\bpragma_(\w+)", re.I)
READ_ONLY_HINT = "only one SELECT, WITH … SELECT, VALUES or EXPLAIN statement is allowed"


def refused(rule, message):
    return {"error": message, "rule": rule}


def run(request):
    word = FIRST_WORD.match(request["sql"]).group(1)
    if word.lower() not in READ_WORDS:
        return refused("read only", "%s is not allowed: %s" % (word.upper() or "this statement", READ_ONLY_HINT))
    deadline = time.monotonic() + request["timeoutMs"] / 1000
    # memory: values no longer than the byte cap allows, and the process as a whole bounded
    memory = 256 * 1024 * 1024 + 8 * request["maxBytes"]
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        conn = sqlite3.connect("file:%s?mode=ro" % pathname2url(request["path"]), uri=True, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
        # sorts and DISTINCT that outgrow the cache stay in this process's bounded memory, never temp files on the host's disk
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max(1_000_000, request["maxBytes"]))
        conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        for pragma in SCHEMA_PRAGMAS:  # load the pragmas' virtual tables before the authorizer watches
            conn.execute("SELECT * FROM pragma_%s('sqlite_master') LIMIT 0" % pragma).fetchall()
    except sqlite3.Error as err:
        return {"error": "cannot open the database: %s" % err}

    denial = []

    def authorize(action, arg1, arg2, _db, _trigger):
        if action in ALLOWED_ACTIONS and not (action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in DENIED_FUNCTIONS):
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in SCHEMA_PRAGMAS and arg2 is not None:
            return sqlite3.SQLITE_OK
        if not denial:
            pragmas = sorted({p.lower() for p in TABLE_PRAGMA.findall(request["sql"])} - set(SCHEMA_PRAGMAS))
            if action == sqlite3.SQLITE_FUNCTION:
                denial.append(refused("function", "the function %s() is not allowed here" % arg2))
            elif pragmas:
                denial.append(refused("read only", "the pragma %s is not allowed: only the schema pragmas %s may be read (pragma_table_info('t')…)"
                                      % (", ".join("pragma_" + p for p in pragmas), ", ".join(SCHEMA_PRAGMAS))))
            else:
                what = ACTION_NAMES.get(action, str(action)).replace("_", " ")
                detail = " (%s)" % arg1 if arg1 else ""
                denial.append(refused("read only", "%s%s is not allowed: %s" % (what, detail, READ_ONLY_HINT)))
        return sqlite3.SQLITE_DENY

    conn.set_authorizer(authorize)
    conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10_000)
    try:
        cursor = conn.execute(request["sql"], request["params"])
        return collect(cursor, request["maxRows"], request["maxBytes"])
    except (sqlite3.Error, sqlite3.Warning, ValueError, OverflowError, MemoryError) as err:
        if denial:
            return denial[0]
        message = str(err) or type(err).__name__
        if isinstance(err, MemoryError) or message == "out of memory":
            return {"error": "the query needs more memory than the reader may use (%d MB): filter, aggregate or LIMIT it" % (memory // (1024 * 1024))}
        if "one statement at a time" in message:
            return refused("one statement", "several statements given: send exactly one statement per call (no \";\" between statements)")
        if message == "interrupted" and time.monotonic() > deadline:
            return {"error": "the query ran longer than the %g s time limit and was stopped: filter, aggregate or LIMIT it" % (request["timeoutMs"] / 1000), "timedOut": True}
        return {"error": "the database refused the query: %s" % message}


def encode(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return value if -SAFE_INT <= value <= SAFE_INT else str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


STORAGE = {int: "integer", float: "real", str: "text", bytes: "blob"}


def kind_of(classes):
    if not classes:
        return "text"
    if classes <= {"integer"}:
        return "int"
    if classes <= {"integer", "real"}:
        return "float"
    if classes == {"text"}:
        return "text"
    if classes == {"blob"}:
        return "bytes"
    return "other"


def collect(cursor, max_rows, max_bytes):
    names = [d[0] for d in (cursor.description or [])]
    classes = [set() for _ in names]
    rows, size, note = [], 2, None
    while note is None:
        batch = cursor.fetchmany(BATCH_ROWS)
        for raw in batch:
            if len(rows) >= max_rows:
                note = "stopped at %d rows (the row cap): the query has more; filter, aggregate or LIMIT it in SQL" % len(rows)
                break
            row = [encode(v) for v in raw]
            row_size = len(json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) + 1
            if size + row_size > max_bytes:
                note = "stopped at %d rows: the result passed the byte cap (%d bytes); select fewer columns or rows" % (len(rows), max_bytes)
                break
            for i, v in enumerate(raw):
                if v is not None:
                    classes[i].add(STORAGE[type(v)])
            rows.append(row)
            size += row_size
        if len(batch) < BATCH_ROWS:
            break
    kinds = [kind_of(c) for c in classes]
    for i, kind in enumerate(kinds):  # one kind per column: ints in a float column as floats, mixed values as text
        for row in rows:
            v = row[i]
            if v is None:
                continue
            if kind == "other":
                row[i] = str(v)
            elif kind == "float" and (isinstance(v, int) or v not in SPECIAL_FLOATS):
                row[i] = float(v)
    columns = [{"name": n, "type": k, "dbType": "|".join(sorted(c)) or "null"} for n, k, c in zip(names, kinds, classes)]
    result = {"columns": columns, "rows": rows, "truncated": note is not None, "bytes": size}
    if note:
        result["note"] = note
    return result


if __name__ == "__main__":
    out = run(json.load(sys.stdin))
    sys.stdout.write(json.dumps(out, ensure_ascii=False, allow_nan=False))
