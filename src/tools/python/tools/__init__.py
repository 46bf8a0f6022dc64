"""code-agent tools: what a program may reach through the host-side broker.

HTTP needs nothing from here: ordinary code (urllib.request, requests, pandas.read_csv(url))
reaches the allowed hosts through the proxy the runner sets up (HTTP_PROXY, HTTPS_PROXY).
SQL: ``from tools import sql`` then ``sql("shop", "SELECT ...", params)`` returns a DataFrame.

``sql`` and ``SqlError`` are loaded on first use: the runner imports this package for the HTTP
relay alone, which should not pay for the SQL client's imports (http.client, email: ~40 ms).
"""

__all__ = ["sql", "SqlError"]


def __getattr__(name):
    if name in __all__:
        import importlib
        module = importlib.import_module(".sql", __name__)  # binds the name `sql` here to the submodule…
        globals().update(sql=module.sql, SqlError=module.SqlError)  # …so bind the function after it
        return globals()[name]
    raise AttributeError("module 'tools' has no attribute %r" % (name,))
