"""A layered sheet's render job (products/characters/layers.py; the drawing side is
render/pdf/layers.py): the pregen family's job extension (render/extension.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from printshop.render.extension import JobExtension

if TYPE_CHECKING:
    from printshop.render.pdf.layers import Overlay


@dataclass(frozen=True)
class LayeredSheet(JobExtension):
    """`slots`: return the geometry of every `data-slot` box, page by page
    (`LayeredSheet.slots_in(result)`); `stamps`, (Slot, HTML text) pairs: lay out these
    stamps, one a page, instead of the job's HTML; `overlay` (layers.Overlay): the forms and
    stamps to draw over each page once the PDF is written."""

    name = "layered-sheet"
    slots: bool = False
    stamps: tuple = ()
    overlay: Overlay | None = None

    def lay_out(self, run):
        if not self.stamps:
            return None
        from printshop.render.pdf.layers import stamp_css, stamps_html

        # in one flow, cut into a page a stamp once written (render/pdf/stamp_pages.py)
        return run.layout(stamps_html(list(self.stamps), flow=True),
                          extra=[stamp_css(run.state, run.font_config)])

    def after_layout(self, run, document) -> None:
        if self.slots or self.overlay is not None:
            from printshop.render.weasy.slots import slot_geometry

            geometry = slot_geometry(document)
            run.kept[self.name] = geometry
            if self.slots:
                run.found[self.name] = geometry

    def after_pdf(self, run, pdf: bytes) -> bytes:
        if self.stamps:
            return self._stamps_cut(run, pdf)
        if self.overlay is None:
            return pdf
        from printshop.render.pdf.layers import draw_layers

        return draw_layers(self.overlay, run.job.uncompressed, run.kept[self.name], pdf,
                           run.state)

    def _stamps_cut(self, run, pdf: bytes) -> bytes:
        """The stamps' flow cut into a page a stamp, stamp n on page n; where its content is
        more than text (a border, a picture), laid out a page a stamp instead."""
        from printshop.render.pdf.layers import stamp_css, stamps_html
        from printshop.render.pdf.stamp_pages import cut
        from printshop.render.weasy.slots import slot_geometry

        count = len(self.stamps)
        pages = run.kept[self.name]
        made = cut(pdf, pages, count, run.job.uncompressed) if not run.job.layout_only \
            else None
        if made is not None:
            where = {name: slot for page in pages for name, slot in page.items()}
            run.found[self.name] = [{f"s{n}": where[f"s{n}"]} for n in range(count)]
            run.pages = count
            return made
        document = run.layout(stamps_html(list(self.stamps)),
                              extra=[stamp_css(run.state, run.font_config)])
        run.found[self.name] = slot_geometry(document)
        run.pages = len(document.pages)
        return b"" if run.job.layout_only else \
            document.write_pdf(uncompressed_pdf=run.job.uncompressed)

    @classmethod
    def found_as_json(cls, found):
        return [{name: dataclasses.asdict(slot) for name, slot in page.items()}
                for page in found]

    @classmethod
    def found_from_json(cls, data):
        from printshop.render.pdf.layers import slot_from_dict

        return [{name: slot_from_dict(d) for name, d in page.items()} for page in data]

    @classmethod
    def nothing_found(cls) -> list:
        return []

    @classmethod
    def slots_in(cls, result) -> list:
        """Per page of the result, {slot name: layers.Slot}."""
        return cls.found_in(result)
