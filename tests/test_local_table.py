"""`expedition-bot local`: a scripted session plays through the real bot and writes the board images."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main


def test_a_scripted_local_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("\n".join([
        "/game new the-expedition seed:5",
        "as bob",
        "/game join",
        "as alice",
        "/game start",
        "buttons",
        "as carol",
        "click 1",
        "/explore move sideways",
        "as alice",
        "click 1",
        "as bob",
        "click 1",
        "/game nonsense",
        "quit",
    ]))
    boards = tmp_path / "boards"
    assert main(["local", "--script", str(script), "--boards", str(boards), "--db", str(tmp_path / "t.db")]) == 0
    out = capsys.readouterr().out
    assert "--- posted:" in out and "The Expedition (Standard) started. Seed 5 was chosen" in out
    assert "@Alice — Alice to place" in out or "@Bob — Bob to place" in out  # pings read as names
    assert "only carol sees" in out and "not playing" in out  # carol is not seated: a private refusal
    assert "direction must be one of: up, down, left, right" in out
    assert "/game has no subcommand 'nonsense'" in out
    assert "placed their explorer on" in out  # someone placed, so a newer board replaced the first one
    assert out.count("started. Seed 5 was chosen") == 1  # an old board losing its buttons is not shown again
    images = sorted(boards.glob("*.png"))
    assert images and images[0].read_bytes().startswith(b"\x89PNG")
    assert f"[image: {images[0]}]" in out
