# code-agent sandbox runner. Runs main.py (in the current dir, /work) as __main__ in the sandbox.
# Started with `python -S`: `site` and its .pth files cost ~15 ms, so the runner adds the
# package dirs and the exit()/quit()/help() builtins itself. Imports only builtin/frozen modules.
# Not a security boundary (the OS sandbox is); it only makes errors friendlier.
import sys
import posix

USER_FILE = "main.py"
INPUT_HINT = ("\nNote: input() is not supported here: the program gets no stdin. "
              "Hard-code the values, or read them from an input file.\n")
_saved = {}  # id(figure) -> file name, so a figure shown then kept open keeps its name


def _save_figures(close):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        for num in plt.get_fignums():
            fig = plt.figure(num)
            if getattr(fig, "_code_agent_saved_by_program", False):
                continue  # the program saved it itself: do not return it twice
            name = _saved.get(id(fig))
            if name is None:
                name = _saved[id(fig)] = "figure_%d.png" % (len(_saved) + 1)
            _ORIGINAL_SAVEFIG[0](fig, name, format="png")
            if close:
                plt.close(fig)
    except Exception as exc:  # a broken figure must not hide the program's own result
        sys.stderr.write("warning: could not save figures: %r\n" % (exc,))


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


class _PyplotHook:
    """Meta-path finder that patches matplotlib.pyplot.show right after pyplot is imported."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "matplotlib.pyplot":
            return None
        from importlib.machinery import PathFinder
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            _patch_pyplot(module)
        loader.exec_module = exec_module
        return spec


def _site():
    """What `site` would do for a system python: package dirs on sys.path, exit/quit/help."""
    ver = "python%d.%d" % sys.version_info[:2]
    for prefix in ("/usr/local", sys.prefix):
        sys.path.append("%s/lib/%s/dist-packages" % (prefix, ver))  # Debian/Ubuntu
        sys.path.append("%s/lib/%s/site-packages" % (prefix, ver))  # everywhere else
    sys.path.append("/usr/lib/python3/dist-packages")
    import builtins
    import _sitebuiltins
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()


def _main():
    sys.argv = [USER_FILE]
    sys.path[0] = posix.getcwd()
    if sys.flags.no_site:
        _site()
    sys.meta_path.insert(0, _PyplotHook())
    with open(USER_FILE, "rb") as f:
        source = f.read()
    main = type(sys)("__main__")
    main.__file__ = USER_FILE
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    code = compile(source, USER_FILE, "exec")
    status = 0
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
    return status


if __name__ == "__main__":
    try:
        _status = _main()
    except SyntaxError:
        import traceback
        traceback.print_exc(limit=0)
        _status = 1
    sys.stdout.flush()
    sys.exit(_status)
