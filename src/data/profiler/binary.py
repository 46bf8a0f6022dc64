# code-agent input profiler, part 5 of 6: binary formats (workbooks, parquet, PDF, images, the rest).

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
    SHEETS[name] = [q_cell(t) for t, _, _, _ in sheets[:10]]
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
