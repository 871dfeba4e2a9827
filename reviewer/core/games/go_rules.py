"""Go rulesets: every way a file names its rules, read once into one `GoRuleset`.

The SGF reader keeps `GoRuleset.name` in `Game.rules`; the board (`games.go`), the queries to
KataGo, KataGo's in-process network inputs, the built-in engine and the rating scale all ask
`ruleset_of(game.rules)` what the rules decide. The properties are KataGo's (its `Rules` class):
scoring, ko rule, whether a chain may kill itself, seki tax, the points White gets for handicap
stones, the button and whether a pass before dead stones are taken is fine.

Spellings: RU values as Fox, Tygem, OGS, KGS, IGS, CGoban, Sabaki and UGF/GIB converters write
them ("Japanese", "CN", "NZ", "GOE", "Tromp-Taylor", "中国规则", ...), KataGo's preset names
("chinese-ogs", "stone-scoring", "aga-button") and KataGo's rule strings
("koSIMPLEscoreAREAtaxSEKIsui0").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Scoring = Literal["area", "territory"]
KoRule = Literal["simple", "positional", "situational"]
TaxRule = Literal["none", "seki", "all"]
HandicapBonus = Literal["0", "N", "N-1"]


@dataclass(frozen=True)
class GoRuleset:
    """What one ruleset decides, and what KataGo is told.

    `suicide`: a chain of two or more stones may play its own last liberty (a lone stone never
    may: that would only pass, and KataGo refuses it under every ruleset). `ko`: simple (no
    immediate retake), positional (no move recreates an earlier board) or situational (no move
    recreates an earlier board with the same player to move). `handicap_bonus`: the points White
    is given for Black's N handicap stones under area scoring."""

    name: str  # as `Game.rules` holds it: "japanese", "new-zealand", or a KataGo rule string
    sgf: str  # as an SGF RU[] value is written
    katago: str  # the "rules" value of a KataGo analysis query
    scoring: Scoring
    ko: KoRule
    suicide: bool
    tax: TaxRule = "none"
    handicap_bonus: HandicapBonus = "0"
    button: bool = False
    friendly_pass: bool = True  # passing before dead stones are removed does not lose them
    komi: float = 7.5  # the komi of an even game

    @property
    def territory(self) -> bool:
        return self.scoring == "territory"


JAPANESE = GoRuleset("japanese", "Japanese", "japanese", "territory", "simple", False, "seki", "0", False, False, 6.5)
KOREAN = GoRuleset("korean", "Korean", "korean", "territory", "simple", False, "seki", "0", False, False, 6.5)
CHINESE = GoRuleset("chinese", "Chinese", "chinese", "area", "simple", False, "none", "N")
CHINESE_OGS = GoRuleset("chinese-ogs", "chinese-ogs", "chinese-ogs", "area", "positional", False, "none", "N")
CHINESE_KGS = GoRuleset("chinese-kgs", "chinese-kgs", "chinese-kgs", "area", "positional", False, "none", "N")
AGA = GoRuleset("aga", "AGA", "aga", "area", "situational", False, "none", "N-1")
AGA_BUTTON = GoRuleset("aga-button", "aga-button", "aga-button", "area", "situational", False, "none", "N-1", True, komi=7.0)
BGA = GoRuleset("bga", "BGA", "bga", "area", "situational", False, "none", "N-1")
FRENCH = GoRuleset("french", "French", "aga", "area", "situational", False, "none", "N-1")
NEW_ZEALAND = GoRuleset("new-zealand", "NZ", "new-zealand", "area", "situational", True)
TROMP_TAYLOR = GoRuleset("tromp-taylor", "Tromp-Taylor", "tromp-taylor", "area", "positional", True, friendly_pass=False)
# Ing (Goe) rules: area counting, positional superko as KataGo reads them, chains may kill themselves.
# KataGo's own "goe" preset is newer than some installed KataGo builds; its rule string is older.
ING = GoRuleset("ing", "Ing", "koPOSITIONALscoreAREAtaxNONEsui1button0whb0fpok1", "area", "positional", True)
STONE_SCORING = GoRuleset("stone-scoring", "stone-scoring", "stone-scoring", "area", "simple", False, "all")
ANCIENT_TERRITORY = GoRuleset(
    "ancient-territory", "ancient-territory", "ancient-territory", "territory", "simple", False, "all", "0", False, False, 6.5
)

RULESETS: tuple[GoRuleset, ...] = (
    JAPANESE, KOREAN, CHINESE, CHINESE_OGS, CHINESE_KGS, AGA, AGA_BUTTON, BGA, FRENCH,
    NEW_ZEALAND, TROMP_TAYLOR, ING, STONE_SCORING, ANCIENT_TERRITORY,
)  # fmt: skip
DEFAULT = JAPANESE  # unknown or missing rules: what KataGo and the board assume

# Spellings with case, spaces, '-' and '_' taken out.
_SPELLINGS: dict[GoRuleset, tuple[str, ...]] = {
    JAPANESE: ("japanese", "jp", "jpn", "japan", "日本", "日本规则", "日本規則", "日本ルール", "일본", "일본룰", "일본규칙"),
    KOREAN: ("korean", "kr", "kor", "ko", "korea", "韩国", "韓国", "韓國", "韩国规则", "韓国ルール", "한국", "한국룰", "한국규칙"),
    CHINESE: ("chinese", "cn", "chn", "china", "中国", "中國", "中国规则", "中國規則", "중국", "중국룰", "중국규칙"),
    CHINESE_OGS: ("chineseogs",),
    CHINESE_KGS: ("chinesekgs",),
    AGA: ("aga", "american"),
    AGA_BUTTON: ("agabutton",),
    BGA: ("bga", "british"),
    FRENCH: ("french",),
    NEW_ZEALAND: ("newzealand", "nz"),
    TROMP_TAYLOR: ("tromptaylor", "tt"),
    ING: ("ing", "goe", "ings", "ingrules", "应氏", "應氏", "应氏规则", "應氏規則"),
    STONE_SCORING: ("stonescoring", "ancientarea"),
    ANCIENT_TERRITORY: ("ancientterritory",),
}
_BY_KEY: dict[str, GoRuleset] = {key: rules for rules, keys in _SPELLINGS.items() for key in keys}
_SEPARATORS = re.compile(r"[\s_\-'’.]+")

_KO_WORDS: dict[str, KoRule] = {"simple": "simple", "positional": "positional", "situational": "situational"}
_SCORING_WORDS: dict[str, Scoring] = {"area": "area", "territory": "territory"}
_TAX_WORDS: dict[str, TaxRule] = {"none": "none", "seki": "seki", "all": "all"}
_BONUS_WORDS: dict[str, HandicapBonus] = {"n-1": "N-1", "n": "N", "0": "0"}  # longest first


def _key(text: str) -> str:
    return _SEPARATORS.sub("", text.strip().lower())


def _from_rule_string(text: str) -> GoRuleset | None:
    """KataGo's rule string ("koSIMPLEscoreAREAtaxSEKIsui0", any case), its defaults filled in as
    KataGo fills them: positional ko, area scoring, suicide, no button, no handicap bonus; tax seki
    under territory scoring, else none. None when the text is not one."""
    rest = re.sub(r"\s+", "", text.lower())
    if not rest.startswith(("ko", "score", "tax", "sui", "button", "whb", "fpok")):
        return None
    ko: KoRule = "positional"
    scoring: Scoring = "area"
    tax: TaxRule | None = None
    bonus: HandicapBonus = "0"
    suicide, button, friendly = True, False, False

    def take(options: dict[str, str]) -> str | None:
        nonlocal rest
        for word, value in options.items():
            if rest.startswith(word):
                rest = rest[len(word):]
                return value
        return None

    while rest:
        if rest.startswith("ko") and (value := take({f"ko{w}": w for w in _KO_WORDS})):
            ko = _KO_WORDS[value]
        elif rest.startswith("scor") and (value := take({f"{p}{w}": w for p in ("scoring", "score") for w in _SCORING_WORDS})):
            scoring = _SCORING_WORDS[value]
        elif rest.startswith("tax") and (value := take({f"tax{w}": w for w in _TAX_WORDS})):
            tax = _TAX_WORDS[value]
        elif rest.startswith("sui") and (value := take({"sui1": "1", "sui0": "0"})):
            suicide = value == "1"
        elif rest.startswith("button") and (value := take({"button1": "1", "button0": "0"})):
            button = value == "1"
        elif rest.startswith("whb") and (value := take({f"whb{w}": w for w in _BONUS_WORDS})):
            bonus = _BONUS_WORDS[value]
        elif rest.startswith("fpok") and (value := take({"fpok1": "1", "fpok0": "0"})):
            friendly = value == "1"
        else:
            return None
    tax = tax or ("seki" if scoring == "territory" else "none")
    name = (
        f"ko{ko.upper()}score{scoring.upper()}tax{tax.upper()}sui{int(suicide)}"
        f"button{int(button)}whb{bonus}fpok{int(friendly)}"
    )
    komi = 6.5 if scoring == "territory" else 7.0 if button else 7.5
    return GoRuleset(name, name, name, scoring, ko, suicide, tax, bonus, button, friendly, komi)


def parse_rules(text: str | None) -> GoRuleset | None:
    """The ruleset a file's rules text names, or None when the text is empty or names none known."""
    if not text or not text.strip():
        return None
    known = _BY_KEY.get(_key(text)) or _from_rule_string(text)
    if known is not None:
        return known
    # "Japanese rules", "Chinese (area)", "AGA 2004": the first word names the rules
    first = re.split(r"[\s(\[,;/]+", text.strip().lower(), maxsplit=1)[0]
    return _BY_KEY.get(_key(first))


def ruleset_of(text: str | None) -> GoRuleset:
    """The ruleset to play and analyse by: the one `text` names, else `DEFAULT` (Japanese)."""
    return parse_rules(text) or DEFAULT


def normalise_rules(text: str) -> str | None:
    """The name `Game.rules` keeps for a file's rules text: the ruleset's name when it is known,
    else the text as written, trimmed and lower-cased; None for an empty text."""
    rules = parse_rules(text)
    if rules is not None:
        return rules.name
    return text.strip().lower() or None


BOARD_LINES = (2, 25)  # the fewest and most lines a side of a Go board has here (SGF allows 1-52; GTP names 25 columns)

__all__ = [
    "BOARD_LINES",
    "DEFAULT",
    "RULESETS",
    "GoRuleset",
    "HandicapBonus",
    "KoRule",
    "Scoring",
    "TaxRule",
    "normalise_rules",
    "parse_rules",
    "ruleset_of",
]


def even_komi(rules: str | None) -> float | None:
    """The komi of an even game under the named rules; None when the rules are not known."""
    known = parse_rules(rules)
    return None if known is None else known.komi
