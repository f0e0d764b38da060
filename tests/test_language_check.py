"""The no-English check the German tests rely on catches English and passes German (a check that cannot fail
would let every German test pass)."""

from tests.language import english_left


def test_german_passes_and_english_is_caught() -> None:
    assert english_left("Alice ist am Zug: würfle oder passe. Sie hat 2 Käfige.") == []
    assert english_left("Alice to move: roll or pass.") == ["to"]
    assert english_left("Bob wins with 12 points", allowed=frozenset({"Bob"})) == ["wins", "with"]
    assert english_left("Kai: Bob's turn") == ["turn"]
