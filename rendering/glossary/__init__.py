"""The boards' glossaries: what every label, number and symbol a board draws means, as data per game.

Each game has a module here (named after its key) with a `GLOSSARY`: entries that match the texts its renderer
draws, in each table language, and explain them through the catalogue (`glossary.<game>.<entry>`, English and
German). `reading.read_board` draws a board with the recorder on and says which entries it needs; the "What's
this?" button shows them, and tests/test_glossary.py fails on any code a board draws without an entry.
"""
