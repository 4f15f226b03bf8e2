import time

import pytest

from printshop.errors import PrintshopError
from printshop.source import yamlfile
from printshop.source.yamlfile import load_yaml


def write(tmp_path, text, name="x.yaml", raw=False):
    path = tmp_path / name
    path.write_bytes(text if raw else text.encode("utf-8"))
    return path


def messages(exc):
    return [str(p) for p in exc.value.problems]


def test_positions_are_kept_for_values_and_keys(tmp_path):
    doc = load_yaml(write(tmp_path, "title: Armour\nrows:\n  - {name: Padded, bonus: 1}\n"))
    assert doc.data == {"title": "Armour", "rows": [{"name": "Padded", "bonus": "1"}]}
    assert (doc.pos(("rows", 0, "bonus")).line, doc.pos(("rows", 0, "bonus")).column) == (3, 27)
    assert doc.pos(("title",), key=True).line == 1


def test_duplicate_key_names_both_lines(tmp_path):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, "a: 1\nb: 2\na: 3\n"))
    assert messages(exc) == [f"{tmp_path}/x.yaml:3:1: duplicate key 'a' (first given on line 1)"]


def test_bad_indentation_is_a_located_syntax_error(tmp_path):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, "title: x\n  bad: indent\n"))
    problem = exc.value.problems[0]
    assert problem.line == 2 and "YAML syntax" in problem.message


@pytest.mark.parametrize("text", ["NO", "yes", "12:30", "010", "1e3", "0x1F", "on", "~x"])
def test_scalars_keep_their_literal_text(tmp_path, text):
    doc = load_yaml(write(tmp_path, f"value: {text}\n"))
    assert doc.data["value"] == text


def test_only_empty_tilde_and_null_mean_nothing(tmp_path):
    doc = load_yaml(write(tmp_path, "a:\nb: ~\nc: null\nd: 'null'\n"))
    assert doc.data == {"a": None, "b": None, "c": None, "d": "null"}


def test_billion_laughs_is_refused_fast_and_small(tmp_path):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    path = write(tmp_path, "\n".join(lines) + "\n")
    assert path.stat().st_size < 1000
    started = time.monotonic()
    with pytest.raises(PrintshopError) as exc:
        load_yaml(path)
    assert time.monotonic() - started < 1
    assert "anchors" in messages(exc)[0]


def test_deep_nesting_is_refused_without_a_crash(tmp_path):
    path = write(tmp_path, "a: " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(PrintshopError) as exc:
        load_yaml(path)
    assert "nesting deeper than" in messages(exc)[0]


def test_block_nesting_is_bounded_too(tmp_path):
    text = "".join(f"{'  ' * i}k{i}:\n" for i in range(200)) + "  " * 200 + "v\n"
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, text))
    assert "nesting deeper than" in messages(exc)[0]


@pytest.mark.parametrize("text", ["a: !!python/object:os.system x\n",
                                  "a: !!python/object/apply:os.system ['id']\n",
                                  "a: !custom x\n"])
def test_tags_are_refused(tmp_path, text):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, text))
    assert "tags" in messages(exc)[0]


def test_aliases_and_merge_keys_are_refused(tmp_path):
    with pytest.raises(PrintshopError):
        load_yaml(write(tmp_path, "a: &x 1\nb: *x\n"))
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, "a:\n  <<: {b: 1}\n"))
    assert "merge keys" in messages(exc)[0]


def test_invalid_utf8_reports_byte_offset_and_line(tmp_path):
    path = write(tmp_path, b"title: ok\nname: caf\xe9\n", raw=True)
    with pytest.raises(PrintshopError) as exc:
        load_yaml(path)
    problem = exc.value.problems[0]
    assert problem.line == 2
    assert "offset 19" in problem.message and "UTF-8" in problem.message


def test_a_byte_order_mark_is_accepted(tmp_path):
    doc = load_yaml(write(tmp_path, b"\xef\xbb\xbftitle: ok\n", raw=True))
    assert doc.data == {"title": "ok"}


@pytest.mark.parametrize("text", ["", "   \n\n", "# only a comment\n"])
def test_empty_files_are_clear_errors(tmp_path, text):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, text))
    assert "empty" in messages(exc)[0] or "no data" in messages(exc)[0]


def test_control_characters_are_reported_with_a_line(tmp_path):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, "a: ok\nb: bad\x07\n"))
    assert exc.value.problems[0].line == 2


# --- libyaml's parser and PyYAML's give the same documents and the same messages --------------

SAMPLES = [
    "name: Event Die\ndice: d6\nrows:\n  - roll: 1\n    text: 'quoted: yes'\n"
    "  - roll: 2\n    text: \"double \\u00e9\"\n  - {roll: 3, text: flow}\n",
    "notes: |\n  a literal\n  block\nfolded: >\n  folded\n  text\nempty:\nnull_word: null\n"
    "tilde: ~\n# a comment\nlist: [a, b, 'c']\n",
    "a: 1\na: 2\n",                       # duplicate key (a problem, located)
    "a: [1, 2\n",                         # unclosed flow sequence
    "a:\n\t- tab\n",                      # a tab where indentation is
    "a: &x 1\nb: *x\n",                   # anchors and aliases refused
    "a: !!python/object 1\n",             # tags refused
    "a: 'unterminated\n",
    "a: b: c\n",
    "- a\nb: c\n",
    "a: 1\n\x07b: 2\n",                   # a control character
    "[" * 200 + "]" * 200,                # too deep
]


@pytest.mark.parametrize("text", SAMPLES)
def test_libyaml_and_pyyaml_read_documents_alike(tmp_path, monkeypatch, text):
    """Tables are read with libyaml's parser when PyYAML has it (4x faster); a document it
    cannot read is read again by PyYAML's, so what the user sees is the same either way."""
    path = tmp_path / "t.yaml"
    path.write_text(text)

    def read():
        try:
            doc = load_yaml(path, keep_going=True)
            return doc.data, doc.value_pos, doc.key_pos, [str(p) for p in doc.problems.items]
        except PrintshopError as exc:
            return "error", str(exc)

    assert yamlfile.CParser is not None   # PyYAML's wheels carry libyaml: the fast path is tested
    fast = read()
    monkeypatch.setattr(yamlfile, "CParser", None)
    assert read() == fast
