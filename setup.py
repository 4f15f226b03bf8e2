"""Packaging glue that pyproject.toml cannot say: the repository keeps printshop's templates
(Jinja, CSS, fonts) in the top-level templates/ folder, and wheels and sdists carry them
inside the package as printshop/templates/, so an installed printshop works from any folder.
Everything else (name, dependencies, entry point) is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["printshop", "printshop.*"]), "printshop.templates"],
    package_dir={"printshop.templates": "templates"},
    package_data={
        "printshop": ["data/*.yaml", "data/scaffold/**/*", "data/icc/*.icc", "data/icc/*.md",
                      "data/schemas/*.json",
                      "serve/assets/*"],
        "printshop.templates": ["**/*"],
    },
    include_package_data=False,
    # `pip install .` builds in the source tree; keep setuptools' scratch files out of build/,
    # which is where printshop writes its products.
    options={"build": {"build_base": ".setuptools-build"}},
)
