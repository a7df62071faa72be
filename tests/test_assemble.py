"""Files that include or extend others: the library path, variants, replace and extend choose."""

import pytest

import ruledsl
from ruledsl import RulesError

BASE = """\
game "Base"
players 2..2
param goal = 3 "points to win"
var points[player]: int = 0
define gain = 1
flow {
  turns from 0 until any(each p in players where points[p] >= goal) {
    choose turn by current {
      move step { points[current] += gain }
    }
  }
}
define score(p) = points[p]
winner(p): highest score(p)
"""


def write(tmp_path, **files):
    for name, text in files.items():
        (tmp_path / f"{name}.rules").write_text(text, encoding="utf-8")
    return tmp_path


def diagnostics(path):
    with pytest.raises(RulesError) as info:
        ruledsl.load(path)
    return info.value.diagnostics


def test_a_variant_replaces_and_extends_without_copying(tmp_path):
    write(tmp_path, base=BASE, variant='''extends "base.rules"
game "Variant"
replace param goal = 5
replace define gain = 2
extend choose turn {
  move leap { points[current] += 3 }
}
''')
    game = ruledsl.load(tmp_path / "variant.rules")
    assert game.name == "Variant" and game.params == {"goal": 5}
    s = game.new_game(players=2)
    assert [m.name for m in s.legal_moves()] == ["step", "leap"]
    s.apply("step")
    assert s.get_var("points[0]") == 2


def test_the_base_is_unchanged_by_its_variant(tmp_path):
    write(tmp_path, base=BASE, variant='extends "base.rules"\nreplace define gain = 2\n')
    ruledsl.load(tmp_path / "variant.rules")
    s = ruledsl.load(tmp_path / "base.rules").new_game(players=2)
    s.apply("step")
    assert s.get_var("points[0]") == 1


def test_redefining_without_replace_is_an_error(tmp_path):
    write(tmp_path, base=BASE, variant='extends "base.rules"\ndefine gain = 2\n')
    [d] = diagnostics(tmp_path / "variant.rules")
    assert (d.code, d.line, d.message) == ("E204", 2, "`gain` is defined twice (first at line 5)")
    assert d.hint == "use `replace` in a variant to change a definition"


def test_replacing_what_the_base_lacks_is_an_error(tmp_path):
    write(tmp_path, base=BASE, variant='extends "base.rules"\nreplace define bonus = 2\n')
    [d] = diagnostics(tmp_path / "variant.rules")
    assert d.code == "E210"
    assert d.message == "`replace` names define `bonus`, which the base file does not define"


def test_extending_a_decision_that_does_not_exist(tmp_path):
    write(tmp_path, base=BASE, variant='extends "base.rules"\nextend choose tern { move x {} }\n')
    [d] = diagnostics(tmp_path / "variant.rules")
    assert d.message == "`extend choose tern`: there is no decision named `tern`"


def test_include_cycle_is_reported(tmp_path):
    write(tmp_path, a='include "b.rules"\n', b='include "a.rules"\n')
    found = diagnostics(tmp_path / "a.rules")
    assert any(d.message == '"a.rules" includes itself' for d in found)


def test_library_files_are_found_after_the_including_folder(tmp_path):
    write(tmp_path, game='include "standard.rules"\ncards standard52 in deck\nzone deck: pile hidden\nflow {}\n')
    assert ruledsl.load(tmp_path / "game.rules").program.card_count == 52


def test_a_local_file_shadows_the_library(tmp_path):
    write(tmp_path, standard='enum suit { cups }\n',
          game='include "standard.rules"\nflow {}\n')
    assert ruledsl.load(tmp_path / "game.rules").program.enums == {"suit": ["cups"]}


def test_errors_in_an_included_file_name_that_file(tmp_path):
    write(tmp_path, lib='define broken = nothing_here\n', game='include "lib.rules"\nflow {}\n')
    [d] = diagnostics(tmp_path / "game.rules")
    assert d.file.endswith("lib.rules") and (d.line, d.message) == (1, "unknown name `nothing_here`")


def test_replacing_a_misspelled_name_suggests_the_one_the_base_has(tmp_path):
    write(tmp_path, base=BASE, variant='extends "base.rules"\nreplace define gian = 2\n')
    [d] = diagnostics(tmp_path / "variant.rules")
    assert d.code == "E210" and d.hint == "did you mean `gain`?"
