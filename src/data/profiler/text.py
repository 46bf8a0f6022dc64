# code-agent input profiler, part 4 of 6: text and logs (known log formats and key=value logs read
# into a DataFrame of their fields, the values of their fields).

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
