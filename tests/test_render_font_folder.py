"""A FontConfiguration's folder of @font-face files made by printshop and removed with its
process (render/weasy/font_folder.py): where WeasyPrint's own would stay behind, and the
same PDF either way."""

from __future__ import annotations

import os

from printshop.render.weasy import font_folder, registry
from printshop.resources import TEMPLATES_DIR

FONTS = TEMPLATES_DIR / "css" / "fonts.css"
HTML = '<p style="font-family: Vollkorn">Vollkorn from an @font-face rule</p>'


def _render(config) -> bytes:
    from weasyprint import CSS
    from weasyprint import HTML as Document

    sheet = CSS(filename=str(FONTS), font_config=config)
    return Document(string=HTML, base_url=TEMPLATES_DIR.as_uri() + "/").write_pdf(
        stylesheets=[sheet], font_config=config)


def test_the_folder_is_printshops_named_for_its_process_and_the_pdf_is_the_same():
    from weasyprint.text.fonts import FontConfiguration

    from printshop.render.job import _font_config

    _font_config(None)      # WeasyPrint imported and patched
    ours = FontConfiguration()
    font_folder.remove_at_exit(ours)
    with registry.switched({"font-folder"}):
        theirs = FontConfiguration()
        font_folder.remove_at_exit(theirs)          # does nothing: the patch is off
        assert theirs._folder is None
        their_pdf = _render(theirs)
        assert theirs._folder.name.startswith("weasyprint-")   # WeasyPrint's own
    assert ours._folder.name.startswith(f"{font_folder.FONT_FOLDER_PREFIX}{os.getpid()}-")
    assert _render(ours) == their_pdf
    assert any(ours._folder.iterdir())              # the font files went there
    del theirs


def test_a_folder_removed_under_a_configuration_is_noticed():
    from weasyprint.text.fonts import FontConfiguration

    config = FontConfiguration()
    font_folder.remove_at_exit(config)
    assert not font_folder.folder_gone(config)
    config._folder.rmdir()
    assert font_folder.folder_gone(config)
