"""Where printshop's own files are: templates (Jinja, CSS, fonts) and data (YAML, scaffold).

In the repository the templates live in the top-level `templates/` folder, beside the
package (an editable install and the tests use them there). Building a wheel or sdist maps
that folder into the package as `printshop/templates/` (setup.py), so an installed printshop
finds them inside itself, from any folder.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
_INSTALLED_TEMPLATES = PACKAGE_DIR / "templates"
TEMPLATES_DIR = (_INSTALLED_TEMPLATES if _INSTALLED_TEMPLATES.is_dir()
                 else PACKAGE_DIR.parent / "templates")
FONTS_DIR = TEMPLATES_DIR / "fonts"
DATA_DIR = PACKAGE_DIR / "data"
SCAFFOLD_DIR = DATA_DIR / "scaffold"
