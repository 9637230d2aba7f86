"""Recall's ordering contract, the same on PostgreSQL and SQLite."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from common.principal import principal_context
from core.errors import ReverieError
from memory.enums import BeliefStatus, BeliefType, EventType
from memory.models import Belief, Event
from memory.selectors.recall import _fuse, _Matched, _messages_behind, recall
from memory.selectors.recall_rows import ItemRow, RecallSource, Shown
from memory.services.beliefs import belief_correct, belief_delete, belief_reject
from memory.services.erasure import event_erase

from .helpers import conversation, remember, say


def texts(result):
    return [item.text for item in result.items]


def test_a_better_match_ranks_higher(owner):
    remember(owner, "User's garden has tomatoes.")
    remember(owner, "User grows tomatoes and basil in the garden greenhouse.")
    remember(owner, "User plays the violin.")

    result = recall(principal=owner, query="tomatoes basil greenhouse")

    assert texts(result) == [
        "User grows tomatoes and basil in the garden greenhouse.",
        "User's garden has tomatoes.",
    ]


def test_matching_stems_finds_other_word_forms(owner):
    remember(owner, "User runs marathons every spring.")

    result = recall(principal=owner, query="running a marathon")

    assert texts(result) == ["User runs marathons every spring."]


def test_it_only_recalls_the_principals_own_memories(owner, other_owner):
    remember(other_owner, "User has a cat called Miso.")
    remember(owner, "User has a dog called Pico.")

    assert texts(recall(principal=owner, query="cat dog called")) == ["User has a dog called Pico."]


def test_it_returns_active_and_provisional_memories_with_their_status(owner):
    active = remember(owner, "User likes green tea.")
    provisional = remember(owner, "User likes black tea.")
    with principal_context(owner):
        Belief.objects.filter(pk=provisional.pk).update(status=BeliefStatus.PROVISIONAL)

    result = recall(principal=owner, query="tea")

    assert {(item.id, item.status) for item in result.items} == {
        (str(active.public_id), "active"),
        (str(provisional.public_id), "provisional"),
    }


def test_it_leaves_out_rejected_superseded_and_deleted_memories(owner):
    rejected = remember(owner, "User likes oolong tea.")
    belief_reject(principal=owner, belief_id=rejected.public_id, expected_revision=1)
    deleted = remember(owner, "User likes jasmine tea.")
    belief_delete(principal=owner, belief_id=deleted.public_id, expected_revision=1)
    corrected = remember(owner, "User likes chai tea.")
    belief_correct(
        principal=owner,
        belief_id=corrected.public_id,
        expected_revision=1,
        statement="User likes rooibos tea.",
    )

    assert texts(recall(principal=owner, query="tea")) == ["User likes rooibos tea."]


def test_beliefs_carry_their_sources(owner):
    session, (message,) = conversation(owner, "I adopted a greyhound named Bolt.")
    remember(owner, "User has a greyhound named Bolt.", sources=[message])

    (item,) = recall(principal=owner, query="greyhound").items

    (source,) = item.sources
    assert source.event_id == str(message.public_id)
    assert source.session_id == str(session.public_id)
    assert source.excerpt == "I adopted a greyhound named Bolt."


def test_original_messages_are_opt_in(owner):
    conversation(owner, "We booked a cabin in Tromsø for the northern lights.")

    assert recall(principal=owner, query="northern lights cabin").items == []
    result = recall(principal=owner, query="northern lights cabin", include=["messages"])
    assert [(item.kind, item.text) for item in result.items] == [
        ("message", "We booked a cabin in Tromsø for the northern lights.")
    ]


def test_messages_and_beliefs_are_fused(owner):
    _, (first, _) = conversation(
        owner, "My sister Ana moved to Lisbon last spring.", "Ana loves Lisbon's trams."
    )
    remember(owner, "User's sister Ana lives in Lisbon.", sources=[first])

    result = recall(principal=owner, query="Ana Lisbon", include=["messages"])

    assert {item.kind for item in result.items} == {"belief", "message"}
    assert [item.rank for item in result.items] == [1, 2]


def test_each_original_message_is_given_once_directly_or_behind_a_memory(owner):
    _, (moved, trams) = conversation(
        owner, "My sister Ana moved to Lisbon last spring.", "Ana loves Lisbon's trams."
    )
    formed = remember(owner, "User's sister Ana lives in Lisbon.", sources=[moved])
    stated = remember(owner, "Ana's favourite city is Lisbon.")

    result = recall(principal=owner, query="Ana Lisbon", include=["messages"])

    given = [(item.kind, item.id) for item in result.items]
    # The formed memory and the message it rests on would say the same thing twice:
    # whichever ranks first stands for both. A memory with no source is always given.
    assert (("belief", str(formed.public_id)) in given) != (
        ("message", str(moved.public_id)) in given
    )
    assert ("belief", str(stated.public_id)) in given
    assert ("message", str(trams.public_id)) in given
    assert len(given) == 3


def test_a_message_and_the_memory_formed_from_it_ranked_alike_give_the_message(owner):
    _, (said,) = conversation(owner, "I drive a Honda Civic, a blue Honda Civic.")
    remember(owner, "User drives a Honda.", sources=[said])

    result = recall(principal=owner, query="Honda Civic", include=["messages"])

    # Each is the first of its list: the message, the record of what was said, comes first,
    # and the memory, which rests on it alone, adds nothing to it.
    assert [(item.kind, item.id) for item in result.items] == [("message", str(said.public_id))]


def fused_item(kind, name, *, sources=(), memory_ids=(), derived_kind=""):
    """A match as fusion sees it: ``name`` its public id (and text), ``memory_ids`` the
    public ids of the memories a derived item concerns."""
    row = ItemRow(
        id=0,
        public_id=name,
        text=name,
        type="",
        subject="",
        status="",
        needs_review=False,
        confidence=None,
        revision=None,
        derived_kind=derived_kind,
        tentative=False,
        scope="principal",
        sensitivity="",
        belief_id=None,
        event_id=None,
    )
    shown = Shown(
        row=row,
        sources={
            event: RecallSource(
                event_id=event,
                session_id="s",
                sequence=1,
                event_type="user_message",
                occurred_at=timezone.now(),
                excerpt="",
            )
            for event in sources
        },
        memory_ids=dict(enumerate(memory_ids)),
    )
    return _Matched(kind, shown, 0.0)


def ids(matches):
    return [match.shown.row.public_id for match in matches]


def test_fused_a_derived_item_follows_the_memories_it_restates():
    first, second, other = (fused_item("belief", name) for name in ("b1", "b2", "b3"))
    summary = fused_item("derived", "d1", memory_ids=("b1", "b2"), derived_kind="summary")
    alone = fused_item("derived", "d2", memory_ids=("b9",), derived_kind="summary")

    fused = _fuse([[first, second, other], [summary, alone]])

    # By rank alone: b1, d1, b2, d2, b3. The summary waits for the last of its memories
    # that matched; one whose memories did not match keeps its place.
    assert ids(fused) == ["b1", "b2", "d1", "d2", "b3"]


def test_fused_items_ranked_alike_come_message_first_then_memory_then_derived():
    memories = [fused_item("belief", name) for name in ("b1", "b2")]
    messages = [fused_item("message", name) for name in ("m1", "m2")]
    views = [fused_item("derived", "d1", memory_ids=("b9",), derived_kind="summary")]

    # Each list's first item has the same fused score, and so has each one's second.
    assert ids(_fuse([memories, views, messages])) == ["m1", "b1", "d1", "m2", "b2"]


def test_one_list_keeps_its_order_whatever_its_items_restate():
    summary = fused_item("derived", "d1", memory_ids=("b1",))
    memory = fused_item("belief", "b1")

    assert ids(_fuse([[summary, memory]])) == ["d1", "b1"]


def test_a_memory_rests_on_its_messages_and_a_hypothesis_or_a_notice_on_none():
    behind = _messages_behind(
        [
            fused_item("message", "m1"),
            fused_item("belief", "b1", sources=("m1",)),
            fused_item("derived", "d1", sources=("m1", "m2"), derived_kind="summary"),
            fused_item("derived", "d2", sources=("m1",), derived_kind="merged"),
            fused_item("derived", "d3", sources=("m1",), derived_kind="uncertainty_notice"),
            fused_item("derived", "d4", sources=("m1",), derived_kind="hypothesis"),
        ]
    )

    assert behind == {
        ("message", "m1"): {"m1"},
        ("belief", "b1"): {"m1"},
        ("derived", "d1"): {"m1", "m2"},
        ("derived", "d2"): {"m1"},
    }


def test_other_participants_and_assistant_messages_are_searchable(owner):
    session, _ = conversation(owner, "hello")
    say(
        owner,
        session,
        "The lighthouse tour starts at nine.",
        event_type=EventType.ASSISTANT_MESSAGE,
    )

    result = recall(principal=owner, query="lighthouse", include=["messages"])

    # The turn before it follows as its neighbour (test_recall_conversation).
    assert [item.event_type for item in result.items] == [
        EventType.ASSISTANT_MESSAGE,
        EventType.USER_MESSAGE,
    ]


def test_a_question_naming_a_participant_finds_their_messages(owner):
    session, _ = conversation(owner, "hello")
    say(
        owner,
        session,
        "I went to a pottery class.",
        event_type=EventType.PARTICIPANT_MESSAGE,
        author_name="Caroline",
    )
    say(
        owner,
        session,
        "Pottery sounds fun.",
        event_type=EventType.PARTICIPANT_MESSAGE,
        author_name="Melanie",
    )
    say(
        owner,
        session,
        "My dog ate my shoe.",
        event_type=EventType.PARTICIPANT_MESSAGE,
        author_name="Caroline",
    )

    result = recall(
        principal=owner, query="What did Caroline say about pottery?", include=["messages"]
    )

    # Melanie's turn sits between two of Caroline's that match, and ranks with them
    # (test_recall_conversation); Caroline's own pottery turn comes before her other one.
    assert set(texts(result)[:3]) == {
        "I went to a pottery class.",
        "Pottery sounds fun.",
        "My dog ate my shoe.",
    }
    assert texts(result).index("I went to a pottery class.") < texts(result).index(
        "My dog ate my shoe."
    )


def test_a_name_in_the_text_outranks_the_same_name_as_the_author(owner):
    session, _ = conversation(owner, "hello")
    say(
        owner,
        session,
        "Lunch was long.",
        event_type=EventType.PARTICIPANT_MESSAGE,
        author_name="Oskar",
    )
    say(
        owner,
        session,
        "Oskar called about lunch.",
        event_type=EventType.PARTICIPANT_MESSAGE,
        author_name="Melanie",
    )

    result = recall(principal=owner, query="Oskar lunch", include=["messages"])

    assert texts(result)[:2] == ["Oskar called about lunch.", "Lunch was long."]


def test_erased_and_fenced_messages_never_appear(owner):
    _, (erased, fenced, kept) = conversation(
        owner,
        "The alarm code is the kayak number.",
        "My kayak is the red one.",
        "The kayak club meets on Sundays.",
    )
    event_erase(principal=owner, event_id=erased.public_id)
    belief = remember(owner, "User owns a red kayak.", sources=[fenced])
    belief_delete(principal=owner, belief_id=belief.public_id, expected_revision=1)

    result = recall(principal=owner, query="kayak", include=["messages"])

    assert texts(result) == ["The kayak club meets on Sundays."]


def test_another_owners_messages_never_appear(owner, other_owner):
    conversation(other_owner, "The vault combination is 4-8-15.")

    assert recall(principal=owner, query="vault combination", include=["messages"]).items == []


def test_filters_by_type_and_since(owner):
    remember(owner, "User prefers window seats on trains.", type=BeliefType.PREFERENCE)
    remember(owner, "User took the night train to Vienna.", type=BeliefType.OUTCOME)

    by_type = recall(principal=owner, query="train", types=["preference"])
    future = recall(principal=owner, query="train", since=timezone.now() + timedelta(minutes=1))
    past = recall(principal=owner, query="train", since=timezone.now() - timedelta(minutes=1))

    assert texts(by_type) == ["User prefers window seats on trains."]
    assert future.items == []
    assert len(past.items) == 2


def test_filters_by_status(owner):
    remember(owner, "User likes green tea.")

    assert recall(principal=owner, query="tea", statuses=["provisional"]).items == []


def test_a_limit_caps_the_number_of_items(owner):
    for n in range(5):
        remember(owner, f"User visited museum number {n}.")

    assert len(recall(principal=owner, query="museum", limit=3).items) == 3


def test_the_budget_caps_the_characters_returned(owner):
    remember(owner, "User likes hiking.")
    remember(owner, "User likes hiking in the Alps with a heavy pack, mostly in September.")

    result = recall(principal=owner, query="hiking alps september", budget_chars=30)

    assert texts(result) == ["User likes hiking."]
    assert result.chars == len("User likes hiking.")
    assert result.truncated


def test_matches_the_budget_leaves_out_give_their_places_to_shorter_ones_further_down(owner):
    # The more often a memory says "kayak", the higher it ranks: the two best are too long.
    for repeats in (9, 8):
        remember(owner, f"User paddles a kayak {' and a kayak' * repeats} every weekend.")
    remember(owner, "User owns a kayak.")
    remember(owner, "User rents a kayak.")

    def recalled(budget):
        with CaptureQueriesContext(connection) as captured:
            result = recall(principal=owner, query="kayak", limit=2, budget_chars=budget)
        return result, len(captured.captured_queries)

    roomy, statements = recalled(1000)
    assert [len(text) > 60 for text in texts(roomy)] == [True, True]
    assert not roomy.truncated
    # Beyond the first two matches, rows are read only when the budget left one out.
    tight, more_statements = recalled(40)
    # Equal scores: the newer first.
    assert texts(tight) == ["User rents a kayak.", "User owns a kayak."]
    assert [item.rank for item in tight.items] == [1, 2]
    assert tight.truncated and tight.chars == len("User rents a kayak.User owns a kayak.")
    assert more_statements == statements + 1


def test_without_query_terms_it_returns_the_newest_memories(owner):
    remember(owner, "User likes chess.")
    remember(owner, "User likes go.")

    assert texts(recall(principal=owner, query="the of and")) == [
        "User likes go.",
        "User likes chess.",
    ]


def test_query_syntax_is_treated_as_plain_words(owner):
    remember(owner, "User likes chess.")

    for query in ['chess" OR "x', "chess & !x | (", "NEAR(chess) *", "chess'; DROP TABLE x; --"]:
        assert texts(recall(principal=owner, query=query)) == ["User likes chess."]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"budget_chars": 0}, "budget_chars"),
        ({"types": ["opinion"]}, "types"),
        ({"statuses": ["deleted"]}, "statuses"),
        ({"include": ["everything"]}, "include"),
        ({"since": "yesterday"}, "since"),
        ({"query": 42}, "query"),
        ({"types": "preference"}, "types"),
        ({"types": [["preference"]]}, "types"),
        ({"include": [{"messages": True}]}, "include"),
    ],
)
def test_bad_options_are_a_validation_error(owner, options, field):
    with pytest.raises(ReverieError) as error:
        recall(principal=owner, **{"query": "tea", **options})

    assert (error.value.code, error.value.details["field"]) == ("validation_error", field)


@pytest.mark.postgres
def test_on_postgresql_recall_matches_through_the_gin_indexes(owner):
    from django.db import connection

    session, _ = conversation(owner, "I cook with saffron.")
    with principal_context(owner):
        Belief.objects.bulk_create(
            Belief(
                owner=owner,
                type="fact",
                subject=f"topic:dish-{n}",
                statement=f"User cooked dish number {n} on a weekday evening.",
                authority="explicit",
                status="active",
                confidence=0.9,
            )
            for n in range(3000)
        )
        Event.objects.bulk_create(
            Event(
                owner=owner,
                session=session,
                sequence=n + 3,  # after the message and the formation flag it raised
                event_type=EventType.USER_MESSAGE,
                author_kind="principal",
                text=f"I cooked dish number {n} on a weekday evening.",
                occurred_at=timezone.now(),
            )
            for n in range(3000)
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memory_belief")
            cursor.execute("ANALYZE memory_event")
    remember(owner, "User cooks with saffron.")
    captured = []

    def capture(execute, sql, params, many, context):
        captured.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        result = recall(principal=owner, query="saffron", include=["messages"])
    # The memory, the message and the turn after it (test_recall_conversation).
    assert len(result.items) == 3
    # Every statement matching rows: the one that ranks every search's candidates.
    searches = [(sql, params) for sql, params in captured if "a.search_vector @@" in sql]
    tables = {"memory_belief": "memory_belief_search", "memory_event": "memory_event_search"}
    assert set(tables) <= {table for sql, _ in searches for table in tables if table in sql}

    with principal_context(owner), connection.cursor() as cursor:
        for sql, params in searches:
            cursor.execute(f"EXPLAIN {sql}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            for index in (index for table, index in tables.items() if table in sql):
                # The match itself, not only the owner, is answered by the GIN index:
                # without the LEAKPROOF provisioning it would be a filter on every row.
                scan = plan.split(f"Bitmap Index Scan on {index}")[1]
                index_condition = scan.splitlines()[1]
                assert "Index Cond" in index_condition, plan
                assert "search_vector @@" in index_condition, plan


def test_the_candidate_cap_never_hides_a_row_matching_more_terms(owner, settings):
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": 1}
    for n in range(5):
        remember(owner, f"User bought bread number {n}.")
    best = remember(owner, "User bought sourdough bread at the harbour bakery.")

    result = recall(principal=owner, query="sourdough bread harbour bakery", limit=3)

    assert result.items[0].id == str(best.public_id)
    assert len(result.items) == 3


def _stage_corpus(owner):
    """Ten rows holding 14 occurrences of "paints harbour boats": every word, all words
    but one, one word."""
    remember(owner, "User paints harbour boats in winter.")
    remember(owner, "User paints harbour scenes.")
    remember(owner, "User photographs harbour boats.")
    for n in range(7):
        remember(owner, f"User paints picture number {n} on weekends.")


@pytest.mark.postgres
def test_the_candidate_stages_rank_as_the_uncapped_ranking_when_they_see_every_row(owner, settings):
    _stage_corpus(owner)
    uncapped = recall(principal=owner, query="paints harbour boats", limit=10)
    # The cap becomes the 10 rows recall fetches for 5 items: below the 14
    # occurrences, so the stages take over. Each finds every row it matches (3,
    # then none new, then the 7 others), a later one leaving out what an
    # earlier one found.
    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": 1}

    staged = recall(principal=owner, query="paints harbour boats", limit=5)

    assert [(item.id, item.score) for item in staged.items] == [
        (item.id, item.score) for item in uncapped.items[:5]
    ]
    assert len({item.id for item in staged.items}) == 5


def _prepared(owner):
    with principal_context(owner), connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


@pytest.mark.postgres
def test_only_the_filling_stage_is_planned_for_its_values(owner, settings):
    """Its plan depends on how many rows its tsquery matches, which a prepared statement's
    generic plan cannot know; the other statements stay prepared (memory.search.postgres)."""
    _stage_corpus(owner)
    thresholds = []

    def observe(execute, sql, params, many, context):
        if "search_vector @@" in sql:
            thresholds.append(connection.connection.prepare_threshold)
        return execute(sql, params, many, context)

    for _ in range(8):
        recall(principal=owner, query="paints harbour boats")
    exact = _prepared(owner)
    assert any("memory_searchstatistics" in statement for statement in exact)
    assert any("search_vector @@" in statement for statement in exact)

    settings.REVERIE_LIMITS = {**settings.REVERIE_LIMITS, "recall_candidate_cap": 1}
    with connection.execute_wrapper(observe):
        recall(principal=owner, query="paints harbour boats", limit=5)

    # The statistics (the exact ranking left out), every word, then all words but one,
    # then the filling stage.
    assert thresholds == [5, 5, 5, None]
    assert connection.connection.prepare_threshold == 5


@pytest.mark.postgres
def test_on_postgresql_recall_reads_each_source_message_by_its_primary_key(owner):
    """Not by walking every message of the owner for each row recalled: row security lets
    only a condition it knows cannot leak reach the index (a CASE does, a COALESCE not)."""
    session, (message,) = conversation(owner, "I cook with saffron.")
    with principal_context(owner):
        Event.objects.bulk_create(
            Event(
                owner=owner,
                session=session,
                sequence=n + 3,  # after the message and the formation flag it raised
                event_type=EventType.USER_MESSAGE,
                author_kind="principal",
                text=f"I cooked dish number {n} on a weekday evening.",
                occurred_at=timezone.now(),
            )
            for n in range(3000)
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memory_event")
    remember(owner, "User cooks with saffron.", sources=[message])
    remember(owner, "User's saffron comes from a market.")
    captured = []

    def capture(execute, sql, params, many, context):
        captured.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        result = recall(principal=owner, query="saffron", include=["messages"])
    assert {item.kind for item in result.items} == {"belief", "message"}
    ((sql, params),) = [(sql, params) for sql, params in captured if "WITH r(branch" in sql]

    with principal_context(owner), connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Index Scan using memory_event_pkey on memory_event e " in plan, plan


@pytest.mark.postgres
def test_on_postgresql_the_search_statistics_look_up_each_query_word(owner, other_owner):
    """In the index of the owner's words, not by reading every word the owner's rows hold,
    whatever the planner makes of how many words there are."""
    for principal in (owner, other_owner):
        with principal_context(principal):
            Belief.objects.bulk_create(
                Belief(
                    owner=principal,
                    type="fact",
                    subject=f"topic:dish-{n}",
                    statement=f"User cooked dish{n} with ingredient{n} on a weekday.",
                    authority="explicit",
                    status="active",
                    confidence=0.9,
                )
                for n in range(3000)
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_searchterm")
        cursor.execute("ANALYZE memory_searchstatistics")
    captured = []

    def capture(execute, sql, params, many, context):
        captured.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        result = recall(principal=owner, query="ingredient7 weekday")
    assert result.items
    ((sql, params),) = [(sql, params) for sql, params in captured if "memory_searchterm" in sql]

    for generic in (False, True):
        plan = _plan(owner, sql, params, generic=generic)
        scan = plan.split(" on memory_searchterm t")[1].splitlines()[1]
        assert "Index Cond" in scan and "lexeme = " in scan, plan


def _plan(owner, sql, params, *, generic):
    """The plan of ``sql``: planned for ``params``, or the generic plan of it prepared."""
    from psycopg import sql as psql

    with principal_context(owner), connection.cursor() as cursor:
        if not generic:
            cursor.execute(f"EXPLAIN {sql}", params)
            return "\n".join(row[0] for row in cursor.fetchall())
        with connection.connection.cursor() as raw:
            raw.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            raw.execute(sql, params, prepare=True)
            raw.execute(
                "SELECT name FROM pg_prepared_statements WHERE statement LIKE %s "
                "ORDER BY prepare_time DESC LIMIT 1",
                [sql[:40].replace("%", "%%") + "%"],
            )
            (name,) = raw.fetchone()
            raw.execute(
                psql.SQL("EXPLAIN EXECUTE {}({})").format(
                    psql.Identifier(name), psql.SQL(", ").join(map(psql.Literal, params))
                )
            )
            return "\n".join(row[0] for row in raw.fetchall())
