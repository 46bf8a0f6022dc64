"""Queries the team's databases from a program: ``from tools import sql``.

``sql("shop", "SELECT …", params)`` sends one read-only statement to the host, which runs it on the
configured source ``shop`` and sends the rows back; they come out as a pandas DataFrame. Only the
sources this conversation may use are reachable; writes, several statements and server-side file
or setting tricks are refused with a ``SqlError`` saying which rule, and results are capped in
rows, bytes and time (a capped result warns and has ``df.attrs["truncated"] = True``).
"""
import base64
import datetime
import decimal
import math
import warnings

from . import _broker

__all__ = ["sql", "SqlError"]

# the broker raises its ToolError for any refused or failed call
_BrokerError = getattr(_broker, "ToolError", RuntimeError)


class SqlError(_BrokerError):
    """The query was refused or failed; the message says why (and which rule, for a refusal)."""


def sql(source, query, params=None):
    """Runs one read-only statement on ``source`` and returns its rows as a pandas DataFrame.

    source: a configured source's name, e.g. ``"shop"``.
    query: one SELECT / WITH / VALUES / EXPLAIN statement; placeholders ``$1, $2…`` (PostgreSQL)
        or ``?`` (SQLite).
    params: a list of values for the placeholders: str, int, float, bool, None, datetime, date,
        time, Decimal, numpy scalars, or lists of them.
    Column dtypes: integers int64 (Int64 when there are NULLs), floats float64, decimals Decimal
    objects, booleans bool (boolean with NULLs), dates and timestamps datetime64[ns]
    (``datetime64[ns, UTC]`` with a time zone), text str objects, json parsed values, bytes bytes.
    Raises SqlError when the query is refused or fails; warns when the result was capped.
    """
    if not isinstance(source, str) or not source:
        raise TypeError("sql(): source must be the name of a SQL source, e.g. sql(\"shop\", \"SELECT 1\")")
    if not isinstance(query, str) or not query.strip():
        raise TypeError("sql(): query must be SQL text, e.g. sql(\"shop\", \"SELECT 1\")")
    if params is None:
        params = []
    elif isinstance(params, (str, bytes, dict)) or not hasattr(params, "__iter__"):
        raise TypeError("sql(): params must be a list of values, e.g. [42, \"2024-03-01\"]")
    payload = {"source": source, "query": query, "params": [_param(p, "params[%d]" % i) for i, p in enumerate(params)]}
    try:
        body = _broker.call("sql", payload)
    except _BrokerError as err:
        raise SqlError(str(err)) from None
    frame = _frame(body["columns"], body["rows"])
    frame.attrs["truncated"] = bool(body.get("truncated"))
    if body.get("truncated"):
        frame.attrs["note"] = body.get("note", "")
        warnings.warn("sql(%r): %s" % (source, body.get("note", "the result was capped")), stacklevel=2)
    return frame


def _param(value, where):
    if hasattr(value, "item") and not isinstance(value, (list, tuple)) and getattr(value, "ndim", 0) == 0:
        value = value.item()  # numpy scalar
    elif hasattr(value, "tolist"):
        value = value.tolist()  # numpy array
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("sql(): %s is %r: pass None for NULL" % (where, value))
        return value
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_param(v, "%s[%d]" % (where, i)) for i, v in enumerate(value)]
    raise TypeError("sql(): %s has type %s: pass a str, int, float, bool, None, date/datetime, Decimal or a list" % (where, type(value).__name__))


def _frame(columns, rows):
    import pandas as pd

    series = [_series(c["type"], [row[i] for row in rows]) for i, c in enumerate(columns)]
    frame = pd.DataFrame({i: s for i, s in enumerate(series)}, index=pd.RangeIndex(len(rows)))
    frame.columns = [c["name"] for c in columns]  # names may repeat (a.id, b.id)
    return frame


def _series(kind, values):
    import numpy as np
    import pandas as pd

    has_null = any(v is None for v in values)
    if kind == "int":
        if has_null:
            return pd.array([None if v is None else int(v) for v in values], dtype="Int64")
        return pd.Series([int(v) for v in values], dtype="int64")
    if kind == "float":
        return pd.Series([np.nan if v is None else float(v) for v in values], dtype="float64")
    if kind == "bool":
        return pd.array(values, dtype="boolean") if has_null else pd.Series(values, dtype="bool")
    if kind == "decimal":
        return pd.Series([None if v is None else decimal.Decimal(v) for v in values], dtype="object")
    if kind == "bytes":
        return pd.Series([None if v is None else base64.b64decode(v) for v in values], dtype="object")
    if kind in ("date", "timestamp", "timestamptz"):
        try:
            return pd.to_datetime(pd.Series(values, dtype="object"), utc=kind == "timestamptz")
        except (ValueError, OverflowError):  # infinity, BC dates, years past 2262: kept as text
            return pd.Series(values, dtype="object")
    return pd.Series(values, dtype="object")
