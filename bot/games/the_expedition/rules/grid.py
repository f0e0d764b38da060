"""Geometry of the 3x3 grid: cells 0-8 in reading order, directions, sides, lines and named cell groups."""

from __future__ import annotations

SIZE = 3
CELLS = tuple(range(SIZE * SIZE))

ORTHOGONAL = ("up", "down", "left", "right")
DIAGONAL = ("up-left", "up-right", "down-left", "down-right")
DIRECTIONS = ORTHOGONAL + DIAGONAL
STEP: dict[str, tuple[int, int]] = {
    "up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1),
    "up-left": (-1, -1), "up-right": (-1, 1), "down-left": (1, -1), "down-right": (1, 1),
}
ARROWS = {"up": "⬆️", "down": "⬇️", "left": "⬅️", "right": "➡️",
          "up-left": "↖️", "up-right": "↗️", "down-left": "↙️", "down-right": "↘️"}

SIDES = ("above", "below", "left", "right")

CORNERS = (0, 2, 6, 8)
EDGES = (1, 3, 5, 7)
CENTER = (4,)
GROUPS: dict[str, tuple[int, ...]] = {"corners": CORNERS, "edges": EDGES, "center": CENTER}

ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
DIAGONALS = ((0, 4, 8), (2, 4, 6))
LINES: dict[str, tuple[tuple[int, int, int], ...]] = {"rows": ROWS, "columns": COLUMNS, "diagonals": DIAGONALS}

CELL_NAMES = ("top left", "top middle", "top right", "middle left", "center", "middle right",
              "bottom left", "bottom middle", "bottom right")


def cell_at(row: int, column: int) -> int:
    return row * SIZE + column


def row_col(cell: int) -> tuple[int, int]:
    return divmod(cell, SIZE)


def step(cell: int, direction: str) -> int | None:
    """The cell one step from `cell` in `direction`, or None off the grid."""
    row, column = row_col(cell)
    d_row, d_column = STEP[direction]
    row, column = row + d_row, column + d_column
    if 0 <= row < SIZE and 0 <= column < SIZE:
        return cell_at(row, column)
    return None


def sides_entered_from(direction: str) -> tuple[str, ...]:
    """The sides of the target cell a move crosses: moving up enters from below; up-right from below and left."""
    d_row, d_column = STEP[direction]
    sides: list[str] = []
    if d_row < 0:
        sides.append("below")
    elif d_row > 0:
        sides.append("above")
    if d_column > 0:
        sides.append("left")
    elif d_column < 0:
        sides.append("right")
    return tuple(sides)


def neighbours(cell: int) -> list[int]:
    """Orthogonally adjacent cells."""
    return [other for direction in ORTHOGONAL if (other := step(cell, direction)) is not None]


def largest_group(cells: set[int]) -> int:
    """Size of the biggest orthogonally connected group among `cells`."""
    best = 0
    unseen = set(cells)
    while unseen:
        frontier = [unseen.pop()]
        size = 0
        while frontier:
            current = frontier.pop()
            size += 1
            for other in neighbours(current):
                if other in unseen:
                    unseen.remove(other)
                    frontier.append(other)
        best = max(best, size)
    return best
