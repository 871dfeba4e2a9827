"""Where Reviewer keeps its files. Each place can be moved with an environment variable.

- data:    REVIEWER_DATA_DIR    (default: the platform's user data directory)
- engines: REVIEWER_ENGINES_DIR (default: <data>/engines) - installed KataGo, models
- cache:   REVIEWER_CACHE_DIR   (default: the platform's user cache directory) - analysis.sqlite
- config:  REVIEWER_CONFIG_DIR  (default: the platform's user config directory) - settings.json
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "reviewer"


def _dir(variable: str, default: str) -> Path:
    value = os.environ.get(variable)
    return Path(value).expanduser() if value else Path(default)


def data_dir() -> Path:
    return _dir("REVIEWER_DATA_DIR", platformdirs.user_data_dir(APP_NAME, appauthor=False))


def engines_dir() -> Path:
    value = os.environ.get("REVIEWER_ENGINES_DIR")
    return Path(value).expanduser() if value else data_dir() / "engines"


def cache_dir() -> Path:
    return _dir("REVIEWER_CACHE_DIR", platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    return _dir("REVIEWER_CONFIG_DIR", platformdirs.user_config_dir(APP_NAME, appauthor=False))


def analysis_cache_path() -> Path:
    return cache_dir() / "analysis.sqlite"
