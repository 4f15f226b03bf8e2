"""A card sheet's render job, its faces placed on its sheets (render/pdf/impose.py): the
card products' job extension (render/extension.py)."""

from __future__ import annotations

from dataclasses import dataclass

from printshop.errors import Problem
from printshop.render.extension import JobExtension


@dataclass(frozen=True)
class CardFaces(JobExtension):
    """For each sheet page, its faces as (face page index, x, y, width, height[, clip]) in
    mm; the face pages follow the sheets in the job's document, each placed on its sheet
    once the PDF is written. The result has the sheets' pages only."""

    name = "card-faces"
    faces: tuple = ()

    def after_pdf(self, run, pdf: bytes) -> bytes:
        from printshop.render.pdf.impose import place_faces

        run.pages = len(self.faces)
        if not pdf:     # laid out only
            return pdf
        try:
            return place_faces(pdf, self.faces, run.job.uncompressed)
        except ValueError as exc:    # a stylesheet made a face two pages
            run.refused.append(Problem(run.job.source, f"{exc}: each card face must fit "
                                       "on one page of its own size"))
            return pdf
