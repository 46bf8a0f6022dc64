# code-agent sandbox runner. Runs main.py (in the current dir, /work) as __main__ in the sandbox.
# Started with `python -S`: `site` and its .pth files cost ~15 ms, so the runner adds the
# package dirs and the exit()/quit()/help() builtins itself. Imports only builtin/frozen modules.
# Not a security boundary (the OS sandbox is); it only makes errors friendlier.
#
# Checks (`runner.py --checks-fd N --report-fd M`): before the program starts, the runner reads the
# checks' source from fd N (a file the host opened; the program never sees it) and moves fd M (a
# pipe to the host) out of the way. After the program ended normally (exit status 0) the checks run
# in a copy of the program's globals with OUTPUT (what it printed) added; the outcome of each
# top-level statement goes to the host as one JSON object on fd M, never on stdout/stderr, so
# nothing the program prints can pass for a check's result. A program that crashed is never checked.
import sys
import posix

USER_FILE = "main.py"
INPUT_HINT = ("\nNote: input() is not supported here: the program gets no stdin. "
              "Hard-code the values, or read them from an input file.\n")
_saved = {}  # id(figure) -> file name, so a figure shown then kept open keeps its name
OUTPUT_CAP = 1 << 20  # characters of stdout kept for the checks
REPORT_FD_MIN = 100  # the report fd is moved this high (below RLIMIT_NOFILE), away from the fds a program opens
VALUE_CHARS = 300  # longest repr of a value in a check's detail
SIDE_CHARS = 4000  # longest text of a compared value sent for the comparison by value
WARM_MODULES = ("numpy", "pandas", "matplotlib", "matplotlib.pyplot")  # pool mode
# Appended to every font matplotlib picks, glyph by glyph: Latin, Greek, Cyrillic and symbols
# (DejaVu), then Chinese, Japanese and Korean (WenQuanYi Micro Hei, or Noto CJK where installed).
# A family that is not installed is skipped. Kept equal to FONT_FALLBACK (python-packages.ts).
FONT_FALLBACK = ("DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC", "Noto Sans CJK JP")
_PATHS = []  # --path DIR: site dirs put on sys.path before the system's (operator's first)
_FONT_CACHE = []  # --font-cache DIR: the font list made at executor setup, copied in before matplotlib loads
_TOOLS_DIR = []  # --tools-dir DIR: where the host's tool broker listens (broker.sock) when the execution has one


def _save_figures(close):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        for num in plt.get_fignums():
            fig = plt.figure(num)
            if getattr(fig, "_code_agent_saved_by_program", False):
                continue  # the program saved it itself: do not return it twice
            if _blank(fig):
                plt.close(fig)
                continue  # nothing drawn (e.g. plt.figure() before a pandas plot made its own): no blank picture
            name = _saved.get(id(fig))
            if name is None:
                name = _saved[id(fig)] = "figure_%d.png" % (len(_saved) + 1)
            (_ORIGINAL_SAVEFIG[0] or type(fig).savefig)(fig, name, format="png", bbox_inches="tight")  # labels past the canvas (long rotated ticks) are kept, not cut
            if close:
                plt.close(fig)
    except Exception as exc:  # a broken figure must not hide the program's own result
        sys.stderr.write("warning: could not save figures: %r\n" % (exc,))


def _blank(fig):
    """A figure with nothing drawn: no axes, or only axes without data, text or tables, and no figure-level text or image."""
    if fig.texts or fig.images or fig.patches or fig.lines:
        return False
    return all(not ax.has_data() and not ax.texts and not ax.tables and not ax.get_title() for ax in fig.axes)


_ORIGINAL_SAVEFIG = [None]  # Figure.savefig before the hook below


def _patch_savefig(figure_class):
    """Marks each figure the program saves itself (plt.savefig or fig.savefig), so it is not auto-saved."""
    original = _ORIGINAL_SAVEFIG[0] = figure_class.savefig

    def savefig(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        self._code_agent_saved_by_program = True
        return result
    figure_class.savefig = savefig


def _patch_pyplot(module):
    def show(*args, **kwargs):
        # Agg cannot display: save what would have been shown, then close it like a closed window.
        _save_figures(close=True)
    module.show = show
    _patch_savefig(module.Figure)


def _patch_font_manager(module):
    """Every font list matplotlib resolves gets the FONT_FALLBACK fonts appended (per-glyph fallback, matplotlib
    >= 3.6), whatever family the program set: Chinese titles render even after
    `rcParams["font.sans-serif"] = ["SimHei"]` (a font that is not installed here)."""
    cls = module.FontManager
    original = getattr(cls, "_find_fonts_by_props", None)
    if original is None:  # another matplotlib: its own fallback only
        return
    extra = []

    def _find_fonts_by_props(self, prop, *args, **kwargs):
        paths = original(self, prop, *args, **kwargs)
        if not extra:
            for family in FONT_FALLBACK:
                try:
                    path = self.findfont(module.FontProperties(family=family), fallback_to_default=False)
                except Exception:  # not installed here
                    continue
                if path not in extra:
                    extra.append(path)
            extra.append(None)  # resolved (even to nothing)
        return list(paths) + [p for p in extra if p is not None and p not in paths]
    cls._find_fonts_by_props = _find_fonts_by_props


_HOOKS = {"matplotlib.pyplot": _patch_pyplot, "matplotlib.font_manager": _patch_font_manager}


class _PyplotHook:
    """Meta-path finder that patches matplotlib right after it is imported: pyplot.show saves
    figures, and fonts fall back to FONT_FALLBACK."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _HOOKS:
            return None
        from importlib.machinery import PathFinder
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            _HOOKS[fullname](module)
        loader.exec_module = exec_module
        return spec


def _site():
    """What `site` would do for a system python: package dirs on sys.path, exit/quit/help."""
    ver = "python%d.%d" % sys.version_info[:2]
    sys.path.extend(_PATHS)
    _copy_font_list()
    for prefix in ("/usr/local", sys.prefix):
        sys.path.append("%s/lib/%s/dist-packages" % (prefix, ver))  # Debian/Ubuntu
        sys.path.append("%s/lib/%s/site-packages" % (prefix, ver))  # everywhere else
    sys.path.append("/usr/lib/python3/dist-packages")
    import builtins
    import _sitebuiltins
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()


def _copy_font_list():
    """matplotlib's font list (fontlist-v*.json), made once at executor setup, copied into this run's
    MPLCONFIGDIR, so that matplotlib does not scan every font again in each sandbox (~0.2 s of a
    cold plot)."""
    if not _FONT_CACHE:
        return
    config = posix.environ.get(b"MPLCONFIGDIR")
    if not config:
        return
    try:
        names = [n for n in posix.listdir(_FONT_CACHE[0]) if n.startswith("fontlist-") and n.endswith(".json")]
        if not names:
            return
        try:
            posix.mkdir(config, 0o700)
        except FileExistsError:
            pass
        for name in names:
            with open("%s/%s" % (_FONT_CACHE[0], name), "rb") as src, open(config + b"/" + name.encode(), "wb") as dst:
                dst.write(src.read())
    except OSError:  # matplotlib makes its own list
        pass


class _Tee:
    """Stands in for sys.stdout: writes through, and keeps the first OUTPUT_CAP characters."""

    def __init__(self, inner):
        self._inner = inner
        self._parts = []
        self._size = 0

    def write(self, text):
        if self._size < OUTPUT_CAP and isinstance(text, str):
            self._parts.append(text)
            self._size += len(text)
        return self._inner.write(text)

    def text(self):
        return "".join(self._parts)[:OUTPUT_CAP]

    def __getattr__(self, name):
        return getattr(self._inner, name)


def _short(value):
    try:
        text = repr(value)
    except Exception as exc:  # a broken __repr__ must not break the report
        text = "<unprintable %s: %r>" % (type(value).__name__, exc)
    return text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS] + "…"


def _error(exc):
    return "%s: %s" % (type(exc).__name__, str(exc)[:VALUE_CHARS])


def _compare(op, left, right):
    import ast
    table = {
        ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
        ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
        ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
        ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
        ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    }
    return bool(table[type(op)](left, right))


_OP_TEXT = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=",
            "In": "in", "NotIn": "not in", "Is": "is", "IsNot": "is not"}


def _side_text(value):
    """A compared value as text for the host's comparison by value: a str as it is, else its repr;
    None when it is longer than SIDE_CHARS (cut text could compare equal by accident)."""
    try:
        text = value if isinstance(value, str) else repr(value)
    except Exception:
        return None
    return text if len(text) <= SIDE_CHARS else None


def _check_assert(node, ns):
    """Evaluates one assert; a single comparison reports both sides (got …, expected op …), and a
    failed `==`, `in` of values of different types (a str and a number, '21' and 21) their texts
    for the host to compare by value (`sides`, with `op`)."""
    import ast

    def value(expr):
        return eval(compile(ast.Expression(expr), "checks", "eval"), ns)
    test = node.test
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right = value(test.left), value(test.comparators[0])
        op = _OP_TEXT[type(test.ops[0]).__name__]
        try:
            if _compare(test.ops[0], left, right):
                return True, None, None
        except TypeError as exc:
            if op != "in" or not isinstance(right, str):
                raise
            detail = "got %s, expected %s in it (%s)" % (_short(right), _short(left), _error(exc))
            return False, detail, _sides(op, left, right)
        detail = "got %s, expected %s %s" % (_short(left), op, _short(right))
        return False, detail, _sides(op, left, right) if op in ("==", "in") and _mixed(left, right) else None
    if value(test):
        return True, None, None
    return False, "was false", None


def _mixed(a, b, depth=0):
    """True when two values differ in type (a str and a number), here or in items at the same place."""
    if type(a) is not type(b):
        return True
    if depth < 3 and isinstance(a, (list, tuple)) and len(a) == len(b):
        return any(_mixed(x, y, depth + 1) for x, y in zip(a, b))
    return False


def _sides(op, left, right):
    texts = [_side_text(left), _side_text(right)]
    if None in texts:
        return None
    return {"op": op, "sides": texts, "text": [isinstance(left, str), isinstance(right, str)]}


def _names(node):
    """Names a statement reads, and names it binds (assignments, loop and comprehension targets,
    imports, definitions, parameters)."""
    import ast
    loads, stores = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores.add(n.name)
        elif isinstance(n, ast.alias):
            stores.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.arg):
            stores.add(n.arg)
    return loads, stores


def _run_checks(source, ns):
    """Runs the checks' top-level statements in order; the first failing setup line ends them.

    An assert that reads nothing of the program (neither OUTPUT nor a name the program defined, nor
    a value computed from them: e.g. checks that make up their own data) is ignored, not run: it
    cannot tell a right program from a wrong one. A name neither the checks nor the builtins define
    counts as the program's (a function the request asked for), so its absence fails the check."""
    import ast
    import builtins
    try:
        tree = ast.parse(source, "checks")
    except SyntaxError as exc:
        return {"results": [], "error": "the checks are not valid Python: %s (line %s)" % (exc.msg, exc.lineno)}
    module = type(sys)
    derived = {k for k, v in ns.items() if not k.startswith("__") and not isinstance(v, module)}
    defined = set()

    def from_program(name):
        return name in derived or (name not in defined and not hasattr(builtins, name))
    results, ignored = [], []
    for node in tree.body:
        text = (ast.get_source_segment(source, node) or ast.unparse(node)).strip()
        loads, stores = _names(node)
        about_program = any(from_program(n) for n in loads - stores) or bool(loads & stores & derived)
        if not isinstance(node, ast.Assert):
            try:
                exec(compile(ast.Module([node], []), "checks", "exec"), ns)
            except BaseException as exc:
                results.append({"check": text, "passed": False, "detail": _error(exc)})
                break
            defined |= stores
            derived = derived | stores if about_program else derived - stores
            continue
        if not about_program:
            ignored.append(text)
            continue
        sides = None
        try:
            passed, detail, sides = _check_assert(node, ns)
        except BaseException as exc:
            passed, detail = False, _error(exc)
        result = {"check": text, "passed": passed}
        if detail is not None:
            result["detail"] = detail
        if sides is not None:
            result["compared"] = sides
        results.append(result)
    return {"results": results, "ignored": ignored}


def _report(fd, report):
    import json
    data = json.dumps(report).encode("utf-8", "replace")
    while data:
        data = data[posix.write(fd, data):]


def _arg(argv, name):
    return int(argv[argv.index(name) + 1]) if name in argv else None


def _read_all(fd):
    chunks = []
    while True:
        chunk = posix.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    posix.close(fd)
    return b"".join(chunks).decode("utf-8", "replace")


def _move_high(fd):
    import fcntl
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, REPORT_FD_MIN)
    posix.close(fd)
    return moved


def _warm_up():
    """Pool mode: what most programs import, imported once before any job (the pool's point)."""
    _site()
    sys.meta_path.insert(0, _PyplotHook())
    for name in WARM_MODULES:
        try:
            __import__(name)
        except Exception:  # a missing package only makes the pool less useful
            pass
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:  # the first drawing loads fonts and the Agg renderer: do it now, keep nothing
        try:
            import io
            fig = plt.figure()
            fig.gca().plot([0, 1], [0, 1])
            fig.gca().set_title("warm")
            _ORIGINAL_SAVEFIG[0](fig, io.BytesIO(), format="png")
            plt.close("all")
            _saved.clear()
        except Exception:
            pass
    sys.stdout.flush()
    sys.stderr.flush()


def _parse_job(text):
    """Job mode: `cpu=S:H fsize=N nofile=N core=0 [as=N nproc=N] checks=0|1` on the first line, then the
    checks' source (src/sandbox/job.ts writes it). Returns (limits, checks or None)."""
    head, _, rest = text.partition("\n")
    limits = {}
    for field in head.split():
        key, _, value = field.partition("=")
        limits[key] = [int(v) for v in value.split(":")]
    checks = rest if limits.pop("checks", [0])[0] == 1 else None
    return limits, checks


def _apply_limits(limits):
    """Job mode: the job's rlimits, lowered in the child before the program runs (never raised)."""
    import resource
    for key, res in (("cpu", resource.RLIMIT_CPU), ("fsize", resource.RLIMIT_FSIZE),
                     ("nofile", resource.RLIMIT_NOFILE), ("nproc", resource.RLIMIT_NPROC),
                     ("as", resource.RLIMIT_AS), ("core", resource.RLIMIT_CORE)):
        value = limits.get(key)
        if value is None:
            continue
        soft, hard = value if len(value) == 2 else (value[0], value[0])
        old_soft, old_hard = resource.getrlimit(res)
        if old_hard != resource.RLIM_INFINITY:
            hard = min(hard, old_hard)
        resource.setrlimit(res, (min(soft, hard), hard))


_PRCTL = []  # prctl(2) through _ctypes, made once


def _set_dumpable(on):
    """Not dumpable: no ptrace, no /proc/PID/fd or mem of the supervisor for the program (same uid
    otherwise). The child turns it back on for itself (its own /proc entries stay readable).
    Calls prctl(2) through the builtin _ctypes: the ctypes package would cost ~3 ms of imports."""
    if not _PRCTL:
        import _ctypes

        class _Int(_ctypes._SimpleCData):
            _type_ = "i"

        class _Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
            _restype_ = _Int

        class _Libc:
            _handle = _ctypes.dlopen(None, 0)
        _PRCTL.append(_Function(("prctl", _Libc())))
    PR_SET_DUMPABLE = 4
    if _PRCTL[0](PR_SET_DUMPABLE, 1 if on else 0, 0, 0, 0) != 0:
        raise OSError("prctl(PR_SET_DUMPABLE) failed")


_EXIT_HINT = []  # the child's exit hint fd (--exit-hint-fd), a pipe to the host


def _supervise(argv):
    """Forks: the child runs the program; this process (which the program cannot write to: it
    closes the status fd before any user line, and this process is not dumpable) reports the
    child's real wait status on the status fd, as one JSON line. Pool mode first warms up and forks,
    then says `ready`; the child waits for the job (checks, limits) on the control fd. Job mode
    (`--job`, a prepared slot's cold start) takes its job the same way, without the warm-up."""
    status_fd = _arg(argv, "--status-fd")
    checks_fd = _arg(argv, "--checks-fd")
    report_fd = _arg(argv, "--report-fd")
    pool = "--pool" in argv
    job_mode = pool or "--job" in argv  # the job (checks, rlimits) comes on the control fd
    checks = None
    if pool:
        _warm_up()
    if job_mode:
        import resource, fcntl  # the child's _apply_limits and _move_high, imported once here
    elif checks_fd is not None:
        checks = _read_all(checks_fd)
    _set_dumpable(False)
    hint_fd = _arg(argv, "--exit-hint-fd")
    pid = posix.fork()  # pool mode: ahead of the job, so a run does not pay for the fork
    if pid == 0:
        posix.close(status_fd)
        if hint_fd is not None:
            _EXIT_HINT.append(hint_fd)
        _set_dumpable(True)
        import _signal  # the builtin: `signal` would import enum (~5 ms)
        # a write past RLIMIT_FSIZE kills with SIGXFSZ (a wait status the supervisor reports),
        # rather than an exception whose text the program could forge
        _signal.signal(_signal.SIGXFSZ, _signal.SIG_DFL)
        if job_mode:  # the job: checks and rlimits, on the control fd once the host has one
            limits, checks = _parse_job(_read_all(checks_fd))
            _apply_limits(limits)
        return checks, (_move_high(report_fd) if report_fd is not None else None)
    if report_fd is not None:
        posix.close(report_fd)
    if job_mode:
        posix.close(checks_fd)  # only the child reads the job
    if hint_fd is not None:
        posix.close(hint_fd)  # only the child sends it
    if pool:
        posix.write(status_fd, b'{"ready": true}\n')
    while True:
        try:
            _, st = posix.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    if posix.WIFSIGNALED(st):
        posix.write(status_fd, b'{"signal": %d}\n' % posix.WTERMSIG(st))
        posix._exit(128 + posix.WTERMSIG(st))
    code = posix.WEXITSTATUS(st)
    posix.write(status_fd, b'{"exit": %d}\n' % code)
    posix._exit(code)


def _main(checks, report_fd):
    sys.argv = [USER_FILE]
    sys.path[0] = posix.getcwd()
    if not any(isinstance(f, _PyplotHook) for f in sys.meta_path):  # pool mode: done at warm-up
        if sys.flags.no_site:
            _site()
        sys.meta_path.insert(0, _PyplotHook())
    _start_tools()
    with open(USER_FILE, "rb") as f:
        source = f.read()
    main = type(sys)("__main__")
    main.__file__ = USER_FILE
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    code = compile(source, USER_FILE, "exec")
    status = 0
    tee = None
    if checks is not None:
        tee = sys.stdout = _Tee(sys.stdout)
    try:
        exec(code, main.__dict__)
    except SystemExit as exc:
        code_ = exc.code
        if code_ is None:
            status = 0
        elif isinstance(code_, int):
            status = code_
        else:
            sys.stderr.write("%s\n" % (code_,))
            status = 1
    except BaseException as exc:
        import traceback
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        traceback.print_exception(type(exc), exc, tb)
        if isinstance(exc, EOFError):
            sys.stderr.write(INPUT_HINT)
        status = 1
    _save_figures(close=False)
    if checks is not None and status == 0:
        namespace = dict(main.__dict__)
        namespace["OUTPUT"] = tee.text().rstrip()  # `print` ends with a newline; checks compare the text
        closed = _close_tools()
        _report(report_fd, _run_checks(checks, namespace) if closed is None else {"results": [], "error": closed})
    return status


def _close_tools():
    """Before the checks: tells the execution's tool broker (src/tools/broker.ts, CHECKS_ROUTE) that
    the program ended, so it refuses every call the checks make. None when done or when there is no
    broker; else why the checks cannot run (they never run with tools still open)."""
    if not _TOOLS_DIR or not posix.access(_TOOLS_DIR[0] + "/broker.sock", posix.F_OK):
        return None
    import socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(10)
            s.connect(_TOOLS_DIR[0] + "/broker.sock")
            s.sendall(b"POST /.checks HTTP/1.1\r\nHost: broker\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            answer = b""
            while len(answer) < 12:
                chunk = s.recv(64)
                if not chunk:
                    break
                answer += chunk
        if answer[:12] == b"HTTP/1.1 204":
            return None
        return "the checks were not run: the tool broker did not close the tools for them (%r)" % answer[:40]
    except OSError as exc:
        return "the checks were not run: the tool broker could not be told to close the tools for them (%s)" % exc


def _start_tools():
    """With a tool broker for this execution (its socket is made before the program starts, also
    for a pooled sandbox): the relay that carries the program's HTTP to it (tools/_proxy.py)."""
    if not _TOOLS_DIR or not posix.access(_TOOLS_DIR[0] + "/broker.sock", posix.F_OK):
        return
    try:
        from tools import _proxy
        _proxy.start(_TOOLS_DIR[0])
    except Exception as exc:  # the program still runs; its tool calls will fail and say so
        sys.stderr.write("code-agent: the tools relay did not start: %s\n" % (exc,))


def _options(argv):
    """`--path DIR` (repeatable), `--font-cache DIR` and `--tools-dir DIR`."""
    for i, arg in enumerate(argv[:-1]):
        if arg == "--path":
            _PATHS.append(argv[i + 1])
        elif arg == "--font-cache":
            _FONT_CACHE.append(argv[i + 1])
        elif arg == "--tools-dir":
            _TOOLS_DIR.append(argv[i + 1])


if __name__ == "__main__":
    _options(sys.argv)
    _supervised = "--status-fd" in sys.argv
    if _supervised:
        _checks, _report_fd = _supervise(sys.argv)  # returns in the child only
    else:
        _c, _r = _arg(sys.argv, "--checks-fd"), _arg(sys.argv, "--report-fd")
        _checks = _read_all(_c) if _c is not None else None
        _report_fd = _move_high(_r) if _r is not None else None
    try:
        _status = _main(_checks, _report_fd)
    except SyntaxError:
        import traceback
        traceback.print_exc(limit=0)
        _status = 1
    if _supervised:
        # the child of a supervisor: run the program's atexit hooks and flush, then skip the
        # interpreter's teardown of every module (slow with numpy/pandas loaded)
        import atexit
        atexit._run_exitfuncs()
        for _stream in (sys.stdout, sys.stderr):
            try:
                _stream.flush()
            except Exception:
                pass
        for _fd in _EXIT_HINT:
            try:
                # "look now": the host reads this process's exit status from the kernel (exit-status.ts)
                # before the kernel has torn it down; the byte itself proves nothing
                posix.write(_fd, b"x")
            except OSError:
                pass
        posix._exit(_status & 0xFF if isinstance(_status, int) else 1)
    sys.stdout.flush()
    sys.exit(_status)
