"""code-agent tools: what a program may reach through the host-side broker.

HTTP needs nothing from here: ordinary code (urllib.request, requests, pandas.read_csv(url))
reaches the allowed hosts through the proxy the runner sets up (HTTP_PROXY, HTTPS_PROXY).
SQL: ``from tools import sql`` then ``sql("shop", "SELECT ...", params)`` returns a DataFrame.
"""
try:
    from .sql import sql  # noqa: F401
except ImportError as _exc:  # the SQL tool is not installed in this build
    _SQL_MISSING = str(_exc)

    def sql(source, query, params=None):
        raise RuntimeError("the SQL tool is not available here (%s)" % _SQL_MISSING)

__all__ = ["sql"]
