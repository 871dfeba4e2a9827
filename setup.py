"""The package list, with the top-level `resources/` folder shipped inside as `reviewer._resources`.

Everything else about the package is in pyproject.toml; the extension modules are optional.
"""

from setuptools import Extension, find_namespace_packages, setup

RESOURCE_GLOBS = ["*", "*/*", "*/*/*", "*/*/*/*"]

setup(
    # namespace packages too: some folders of `reviewer` have no __init__.py
    packages=[
        *find_namespace_packages(include=["reviewer", "reviewer.*"], exclude=["*.__pycache__"]),
        "reviewer._resources",
    ],
    package_dir={"reviewer._resources": "resources"},
    package_data={"reviewer._resources": RESOURCE_GLOBS},
    include_package_data=False,
    # The PGN index's scanner, the game database's chess and Go main-line readers and its positions' sort in C;
    # optional: without a compiler the same work runs in Python.
    ext_modules=[
        Extension("reviewer.core.formats._pgn_blocks", ["reviewer/core/formats/_pgn_blocks.c"], optional=True),
        Extension(
            "reviewer.core.database._chess_lines",
            ["reviewer/core/database/_chess_lines.c"],
            depends=["reviewer/core/database/_polyglot.h"],
            optional=True,
        ),
        Extension("reviewer.core.database._first_visits", ["reviewer/core/database/_first_visits.c"], optional=True),
        Extension("reviewer.core.database._go_lines", ["reviewer/core/database/_go_lines.c"], optional=True),
    ],
)
