"""The Jinja environment: sandboxed, autoescaped, strict about undefined names.

Templates may come from a project (a user's `templates/` folder), so they run in Jinja's
sandbox, can only load templates from the template folders (symlinks that leave are
refused), and their output is capped.
"""

from __future__ import annotations

import traceback
from pathlib import Path

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from printshop import deps
from printshop.errors import PrintshopError, display_path
from printshop.safepath import UnsafePath, resolve_inside

MAX_OUTPUT_CHARS = 60_000_000


class SafeLoader(jinja2.FileSystemLoader):
    def __init__(self, folders: list[Path]):
        super().__init__([str(f) for f in folders])
        self.folders = [Path(f).resolve() for f in folders]

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        try:
            resolve_inside(filename, self.folders, allow_absolute=True)
        except UnsafePath as exc:
            raise jinja2.TemplateNotFound(f"{template} ({exc})") from None
        return source, filename, uptodate

    def record(self, name: str, filename: str | None) -> None:
        """The template is a dependency, and so is the absence of a file of that name in
        every folder searched before (a project template would shadow the built-in one)."""
        if not filename or not deps.active():
            return
        deps.record_file(filename)
        found = Path(filename).resolve()
        for folder in self.folders:
            if folder in found.parents:
                break
            deps.record_missing(folder / name)


class _Environment(ImmutableSandboxedEnvironment):
    # The sandbox's verdict on `obj.attr` depends only on the object's type and the name
    # (jinja2/sandbox.py: a leading underscore, `is_internal_attribute` and
    # `modifies_known_mutable` look at nothing else), and it is asked at every attribute a
    # template reads: ~200 times for each character sheet of a pack, a fifth of composing
    # it. Each verdict is worked out once per (type, name) by Jinja itself.
    _verdicts: dict[tuple[type, str], bool] = {}

    def is_safe_attribute(self, obj, attr, value):
        key = (type(obj), attr)
        safe = self._verdicts.get(key)
        if safe is None:
            safe = self._verdicts[key] = super().is_safe_attribute(obj, attr, value)
        return safe

    def _load_template(self, name, globals):
        # Every load, cached or not (includes, imports and extends come through here).
        template = super()._load_template(name, globals)
        if isinstance(self.loader, SafeLoader):
            self.loader.record(name, template.filename)
        return template


class _CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once, whichever environment loads them: a build makes several
    (a product's check, then its render, with the print profile's colours), and compiling
    a deck's templates is ~0.1 s of every command's start. Kept for the process and in the
    user's cache folder (`printshop.user_cache`, `jinja/`), as Python keeps its compiled
    modules: keyed by the template's file, its source (Jinja checks the source's checksum)
    and the filters and tests the environment has, which compiling checks; Jinja's own
    header refuses code of another Python or Jinja version. Every environment comes from
    `make_environment`, with one set of options."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def get_bucket(self, environment, name, filename, source):
        import hashlib

        from jinja2.bccache import Bucket

        key = "|".join((self.get_cache_key(name, filename), ",".join(sorted(
            environment.filters)), ",".join(sorted(environment.tests)),
            hashlib.sha1(source.encode("utf-8")).hexdigest()))
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def _file(self, key: str) -> Path:
        import hashlib

        from printshop import user_cache

        return user_cache.folder("jinja", hashlib.sha256(key.encode()).hexdigest() + ".cache")

    def load_bytecode(self, bucket) -> None:
        code = self.code.get(bucket.key)
        if code is None:
            try:
                code = self._file(bucket.key).read_bytes()
            except OSError:
                return
            self.code[bucket.key] = code
        bucket.bytecode_from_string(code)   # (a header of another version loads nothing)

    def dump_bytecode(self, bucket) -> None:
        from printshop import user_cache

        code = self.code[bucket.key] = bucket.bytecode_to_string()
        user_cache.write_atomically(self._file(bucket.key), code)


_COMPILED = _CompiledTemplates()


def make_environment(folders: list[Path], filters: dict | None = None,
                     globals_: dict | None = None) -> jinja2.Environment:
    env = _Environment(
        loader=SafeLoader(folders),
        bytecode_cache=_COMPILED,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(filters or {})
    env.globals.update(globals_ or {})
    # `{% if value is present %}`: a value to print, 0 and "0" and false included (only
    # nothing, empty text and an empty list are not), where `{% if value %}` drops a 0
    env.tests["present"] = _present
    return env


def _present(value) -> bool:
    return value is not None and value != "" and value != [] and value is not \
        jinja2.Undefined and not isinstance(value, jinja2.Undefined)


def render_template(env: jinja2.Environment, name: str, **context) -> str:
    """Render `name`; any template mistake becomes `template:line: message`."""
    try:
        template = env.get_template(name)
        chunks, size = [], 0
        for chunk in template.generate(**context):
            size += len(chunk)
            if size > MAX_OUTPUT_CHARS:
                raise PrintshopError.at(template.filename or name,
                                        f"template output is larger than "
                                        f"{MAX_OUTPUT_CHARS // 1_000_000} million characters")
            chunks.append(chunk)
        return "".join(chunks)
    except PrintshopError:
        raise
    except jinja2.TemplateSyntaxError as exc:
        raise PrintshopError.at(exc.filename or name, f"template syntax: {exc.message}",
                                exc.lineno) from None
    except jinja2.TemplateNotFound as exc:
        where, line = _template_frame(exc, env)
        raise PrintshopError.at(where or "templates",
                                f"template not found: {exc.message or exc.name}", line) from None
    except SecurityError as exc:
        where, line = _template_frame(exc, env)
        raise PrintshopError.at(where or name, f"not allowed in a template: {exc}", line) from None
    except jinja2.UndefinedError as exc:
        where, line = _template_frame(exc, env)
        raise PrintshopError.at(where or name, exc.message or str(exc), line) from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError) \
            as exc:
        where, line = _template_frame(exc, env)
        if where is None:
            raise
        raise PrintshopError.at(where, f"{exc.__class__.__name__}: {exc}", line) from None


def _template_frame(exc: BaseException, env) -> tuple[str | None, int | None]:
    """The innermost traceback frame that is a template file (Jinja rewrites frames so)."""
    folders = [str(f) for f in env.loader.folders] if hasattr(env.loader, "folders") else []
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith((".j2", ".html", ".jinja")) or any(
                frame.filename.startswith(f) for f in folders):
            return display_path(Path(frame.filename)), frame.lineno
    return None, None
