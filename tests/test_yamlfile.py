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


# What people get wrong by hand, and what they are told: (text, line, column, message).
SYNTAX_MISTAKES = [
    ("rows:\n  - roll: 1\n    result: a\n   - roll: 2\n    result: b\n", 4, 4,
     "this item is indented 3 spaces; the items above it 2"),
    ("id: w\nrows:\n  - roll: 1-3\n   result: a\n  - roll: 4-6\n    result: b\n", 4, 4,
     "this line is indented 3 spaces; the line above it 4"),
    ("a:\n    b: 1\n  c: 2\n", 3, 3, "this line is indented 2 spaces; the line above it 4"),
    ("title: x\n  bad: indent\n", 2, 3, "this line is indented 2 spaces; the line above it 0 "
     "(it has its value already"),
    ("a:\n\tb: 1\n", 2, 1, "a tab character: YAML indents with spaces only"),
    ('title: "Hello\nnext: 1\nmore: 2\n', 1, 8, 'this quote (") is never closed'),
    ("title: 'It''s\nnext: 1\n", 1, 8, "this quote (') is never closed"),
    ("title: Note: this\n", 1, 12, "a second ':' in this line: put the value in quotes"),
    ("a: 1\nb\nc: 2\n", 2, 1, "this line has no ':' after its key"),
    ("decks: [a, b\nnext: 1\n", 1, 8, "this [ is never closed: end the list with ]"),
    ("a: 1\noops: {\n", 2, 7, "this { is never closed: the file ends before its }"),
    ("a: 1\nbad: [unclosed, 'x]'\n", 2, 6, "this [ is never closed: the file ends before its ]"),
    ("a: @b\n", 1, 4, "a value cannot start with '@': put the value in quotes"),
    ("a:\n  - x\n  b: 1\n", 3, 3, "this line is not a list item but is indented like the "
     "items above it (2 spaces)"),
    ('title: "Hello" world\n', 1, 16, "text after the closing quote"),
]


@pytest.mark.parametrize("text, line, column, message", SYNTAX_MISTAKES)
def test_syntax_mistakes_are_explained_in_plain_words(tmp_path, text, line, column, message):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, text))
    problem, = exc.value.problems
    assert (problem.line, problem.column) == (line, column)
    assert problem.message.startswith(message)
    assert "<block" not in problem.message and "while parsing" not in problem.message


def test_other_syntax_errors_keep_pyyamls_words_in_one_line(tmp_path):
    with pytest.raises(PrintshopError) as exc:
        load_yaml(write(tmp_path, "a: 1\n--- !\nb: 2\n"))
    problem, = exc.value.problems
    assert problem.line and "\n" not in problem.message


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
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
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
