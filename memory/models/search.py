from django.db import models

from common.models import OwnedModel

from .operations import SearchStatistics


class SearchTerm(OwnedModel):
    """How many of a principal's searchable rows of a collection hold a lexeme (PostgreSQL).

    The document frequencies of BM25 (``memory.search.postgres``). Database
    triggers keep them in the transaction of every write and delete a lexeme
    with the last live row of the principal holding it, so erased text leaves
    nothing here that other live text does not also hold (``KeepSearchStatistics``).
    Lexemes are derived from memory text: the table is under row security.
    """

    collection = models.CharField(max_length=12, choices=SearchStatistics.Collection.choices)
    lexeme = models.TextField()
    documents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "collection", "lexeme"], name="search_term_unique"
            ),
        ]
