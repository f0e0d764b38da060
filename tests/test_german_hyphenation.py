"""Issue 33 item 10: German compounds break on boards only where the compound joins ("Obsidian-splitter", never
"Obsidi-ansplitter"): rendering/hyphenation.txt lists the words the patterns split wrongly, with "|" at their
compound boundaries, and the typesetter breaks a listed word only there."""

from __future__ import annotations

import itertools

import pytest

from rendering import typeset


def test_the_issue_words_are_listed_at_their_compound_boundaries() -> None:
    breaks = typeset.compound_breaks()
    assert breaks["Obsidiansplitter"] == (8,)
    assert breaks["Messingkompass"] == (7,)
    assert breaks["Aussichtshügel"] == (9,)


@pytest.mark.parametrize("word", sorted(typeset.compound_breaks()))
@pytest.mark.parametrize("weight", ["regular", "semibold"])
def test_a_listed_word_breaks_only_at_a_compound_boundary(word: str, weight: str) -> None:
    """At every width where each part of the compound fits on a line, the word breaks only between parts."""
    size = 17
    whole = typeset.measure(word, size, weight)
    cuts = (0, *typeset.compound_breaks()[word], len(word))
    parts = [word[start:end] + "-" for start, end in itertools.pairwise(cuts)]
    allowed = {part for part in parts[:-1]}
    heads = set()
    for width in range(max(typeset.measure(part, size, weight) for part in parts), whole):  # every part fits
        lines = typeset.lines(word, width, size, weight)
        assert "".join(line.removesuffix("-") for line in lines) == word
        heads |= set(lines[:-1])
    assert heads and heads <= allowed, f"{word} broke as {sorted(heads)}"
