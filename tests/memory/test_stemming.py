"""The stemmer rules compare words with is the one SQLite's full-text index stems them with."""

import sqlite3

import pytest

from memory.stemming import stem

WORDS = """
running runs ran owns owned owning sold sells trusts trusted distrusts likes liked dislikes
hospital hospitals nurse nurses doctor doctors bicycle bicycles green bread volunteers
volunteering works worked caresses ponies ties feed agreed plastered motoring conflated
troubled sized hopping tanned falling hissing fizzed failing filing happy sky relational
conditional digitizer vietnamization predication operator feudalism decisiveness
hopefulness callousness formality sensitivity triplicate formative formalize electricity
electrical goodness revival allowance inference airliner gyroscopic adjustable defensible
irritant replacement adjustment dependent adoption communism activate effective bowdlerize
probate rate cease controlling generalization oscillators families memories coffee cycling
rides university organization generously happiness honey milk tea x3
""".split()


@pytest.fixture(scope="module")
def porter():
    """A word's stem as SQLite's FTS5 ``porter`` tokenizer indexes it."""
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")

    def indexed(word):
        connection.execute("DELETE FROM t")
        connection.execute("INSERT INTO t VALUES (?)", (word,))
        return connection.execute("SELECT term FROM v").fetchone()[0]

    yield indexed
    connection.close()


@pytest.mark.parametrize("word", WORDS)
def test_a_word_stems_as_the_full_text_index_stems_it(word, porter):
    assert stem(word) == porter(word)


def test_forms_of_one_word_share_a_stem():
    assert stem("running") == stem("runs") == "run"
    assert stem("hospitals") == stem("hospital")
    assert stem("volunteering") == stem("volunteers")
