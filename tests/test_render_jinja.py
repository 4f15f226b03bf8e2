import pytest

from printshop.errors import PrintshopError
from printshop.render.jinja import make_environment, render_template


@pytest.fixture
def templates(tmp_path):
    folder = tmp_path / "templates"
    folder.mkdir()
    return folder


def render(folder, name, text, **context):
    (folder / name).write_text(text)
    return render_template(make_environment([folder]), name, **context)


def problem(folder, name, text, **context):
    with pytest.raises(PrintshopError) as exc:
        render(folder, name, text, **context)
    return exc.value.problems[0]


def test_autoescape(templates):
    assert render(templates, "a.html.j2", "{{ x }}", x="<b>") == "&lt;b&gt;"


def test_typo_names_template_line_and_attribute(templates):
    p = problem(templates, "x.html.j2", "line one\n{{ card.costt }}\n", card={"cost": 1})
    assert p.path.endswith("templates/x.html.j2") and p.line == 2
    assert "has no attribute 'costt'" in p.message


def test_syntax_error_names_file_and_line(templates):
    p = problem(templates, "x.html.j2", "ok\n\n{% if x %}never closed\n", x=1)
    assert p.path.endswith("x.html.j2") and p.line == 3 and "template syntax" in p.message


@pytest.mark.parametrize("text", ["{{ ''.__class__.__mro__ }}", "{{ ''|attr('__class__') }}",
                                  "{{ x.__init__.__globals__ }}"])
def test_sandbox_refuses_python_internals(templates, text):
    p = problem(templates, "x.html.j2", text, x=object())
    assert "not allowed" in p.message or "has no attribute" in p.message or "unsafe" in p.message


def test_the_sandbox_says_what_jinja_says_of_each_attribute_once_per_type():
    # its verdicts are remembered by (type, name): Jinja's own for every kind of object
    # it judges by type (functions, methods, types, code, generators, mutable builtins)
    import collections
    import types

    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def gen():
        yield 1

    def func():
        return 1

    env, jinja = make_environment([]), ImmutableSandboxedEnvironment()
    objects = [func, "".join, [].append, str, func.__code__, gen(), [], {}, set(),
               collections.deque(), collections.OrderedDict(), object(), 3, "text",
               types.SimpleNamespace(name="x")]
    names = ["append", "update", "pop", "clear", "add", "mro", "__globals__", "__code__",
             "gi_frame", "__class__", "_private", "name", "upper", "items", "f_globals"]
    for obj in objects:
        for name in names:
            value = getattr(obj, name, None)
            expected = jinja.is_safe_attribute(obj, name, value)
            assert env.is_safe_attribute(obj, name, value) == expected, (obj, name)
            assert env.is_safe_attribute(obj, name, value) == expected, (obj, name)


@pytest.mark.parametrize("text", ["{{ x.append(1) }}", "{{ y.update({}) }}"])
def test_sandbox_refuses_changing_what_a_template_is_given(templates, text):
    p = problem(templates, "x.html.j2", text, x=[], y={})
    assert "not allowed" in p.message or "unsafe" in p.message


def test_include_outside_the_template_folder_is_refused(templates, tmp_path):
    (tmp_path / "x").write_text("secret")
    p = problem(templates, "x.html.j2", '{% include "../x" %}')
    assert "not found" in p.message


def test_symlinked_template_leaving_the_folder_is_refused(templates, tmp_path):
    (tmp_path / "outside.j2").write_text("secret")
    (templates / "link.j2").symlink_to(tmp_path / "outside.j2")
    p = problem(templates, "x.html.j2", '{% include "link.j2" %}')
    assert "outside the project" in p.message


def test_runaway_output_is_stopped(templates, monkeypatch):
    monkeypatch.setattr("printshop.render.jinja.MAX_OUTPUT_CHARS", 10_000)
    p = problem(templates, "x.html.j2", "{% for i in range(100000) %}xxxxxxxx{% endfor %}")
    assert "larger than" in p.message


# --- compiled once a process (the check's environment, then the render's) ----------------------

@pytest.fixture
def compiled(monkeypatch):
    """The names of the templates Jinja compiles, in order."""
    import jinja2

    names = []
    compile_ = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


def test_a_template_is_compiled_once_for_every_environment(templates, compiled):
    (templates / "once.html.j2").write_text("{{ x|shout }}")
    filters = {"shout": lambda v: f"{v}!"}
    first = render_template(make_environment([templates], filters=filters), "once.html.j2",
                            x="a")
    second = render_template(make_environment([templates], filters=filters), "once.html.j2",
                             x="b")
    assert (first, second) == ("a!", "b!") and compiled == ["once.html.j2"]
    # an edit is compiled again
    (templates / "once.html.j2").write_text("{{ x|shout }}?")
    assert render_template(make_environment([templates], filters=filters), "once.html.j2",
                           x="c") == "c!?"
    # an environment without the filter still refuses the template, as compiling it would
    with pytest.raises(PrintshopError) as exc:
        render_template(make_environment([templates]), "once.html.j2", x="d")
    assert "shout" in exc.value.problems[0].message


def test_a_compiled_template_is_kept_in_the_users_cache_for_the_next_process(
        templates, monkeypatch, tmp_path, compiled):
    from printshop.render import jinja

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (templates / "kept.html.j2").write_text("<b>{{ x }}</b>")
    monkeypatch.setattr(jinja, "_COMPILED", jinja._CompiledTemplates())
    assert render_template(make_environment([templates]), "kept.html.j2", x="<a>") == \
        "<b>&lt;a&gt;</b>"
    assert compiled == ["kept.html.j2"]
    assert len(list((tmp_path / "cache" / "printshop" / "jinja").iterdir())) == 1
    # a new process: nothing compiled in memory, the user's cache has it
    monkeypatch.setattr(jinja, "_COMPILED", jinja._CompiledTemplates())
    assert render_template(make_environment([templates]), "kept.html.j2", x="<a>") == \
        "<b>&lt;a&gt;</b>"
    assert compiled == ["kept.html.j2"]
    # an edited template, or a cache file that is not code, is compiled again
    (templates / "kept.html.j2").write_text("<i>{{ x }}</i>")
    monkeypatch.setattr(jinja, "_COMPILED", jinja._CompiledTemplates())
    assert render_template(make_environment([templates]), "kept.html.j2", x="y") == "<i>y</i>"
    for cached in (tmp_path / "cache" / "printshop" / "jinja").iterdir():
        cached.write_bytes(b"not bytecode")
    monkeypatch.setattr(jinja, "_COMPILED", jinja._CompiledTemplates())
    assert render_template(make_environment([templates]), "kept.html.j2", x="z") == "<i>z</i>"
    assert compiled == ["kept.html.j2"] * 3
