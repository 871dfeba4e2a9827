"""The package list, with the top-level `resources/` folder shipped inside as `reviewer._resources`.

Everything else about the package is in pyproject.toml.
"""

from setuptools import find_packages, setup

RESOURCE_GLOBS = ["*", "*/*", "*/*/*", "*/*/*/*"]

setup(
    packages=[*find_packages(include=["reviewer", "reviewer.*"]), "reviewer._resources"],
    package_dir={"reviewer._resources": "resources"},
    package_data={"reviewer._resources": RESOURCE_GLOBS},
    include_package_data=False,
)
