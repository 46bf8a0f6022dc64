# code-agent input profiler, part 6 of 6: which profiler a file gets, and the entry point _main(names).

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
        if name in FIELDS:
            entry["fields"] = FIELDS[name]
        if name in SHEETS:
            entry["sheets"] = SHEETS[name]
        out.append(entry)
    print(json.dumps({"files": out}, ensure_ascii=False))
