# code-agent input profiler, part 1 of 6: imports, bounds, quoting and the helpers every format uses.
# The parts (src/data/profiler/, in the order PROFILER_PARTS gives in profile.ts) are joined and run
# INSIDE the sandbox as the program of one execution, over the input files in the work dir
# (untrusted: never parsed on the host). It prints one JSON object on stdout:
#   {"files": [{"name": str, "summary": str, "text": str, "rows"?: [[str]]}, ...]}
# `rows` (tables only: CSV/TSV, a workbook's first sheet) are the first rows as cells, for a preview.
# `fields` (tables, JSON records) name each column or record key with its type, a sample value and how
# to read it when a plain read gets it wrong; `sheets` (workbooks) are the sheet names. The agent reads
# them to say what the data holds under the names a failed program used.
# `summary` is one line ("object with key "orders": 1,204 records {id, …}"), `text` a few lines the
# model reads. Every read is bounded (bytes read, lines sampled, time per file, characters out), so a
# huge, sparse or hostile file cannot hang it; file text is always quoted (repr), never echoed bare.

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
FIELDS = {}                     # file name -> {"header": bool, "fields": [{"name", "type", "example"?, "note"?}]}
SHEETS = {}                     # file name -> a workbook's sheet names
FIELD_COUNT = 60                # most fields kept per file


def keep_preview(name, rows):
    PREVIEWS[name] = [[q_cell(c) for c in r[:PREVIEW_COLUMNS]] for r in rows[:PREVIEW_ROWS]]


def q_cell(v):
    text = "" if v is None else str(v)
    text = "".join(c if c.isprintable() else " " for c in text)
    return text if len(text) <= PREVIEW_CELL_CHARS else text[:PREVIEW_CELL_CHARS - 1] + "…"


def keep_fields(name, fields, header=True):
    """Keeps a file's fields: (name, type, example, note) tuples, bounded, for the agent (not the model)."""
    out = []
    for f_name, f_type, example, note in fields[:FIELD_COUNT]:
        entry = {"name": q_cell(f_name) if isinstance(f_name, str) else f_name, "type": f_type}
        if example not in (None, ""):
            entry["example"] = q_cell(example)
        if note:
            entry["note"] = note[:300]
        out.append(entry)
    FIELDS[name] = {"header": header, "fields": out}


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
