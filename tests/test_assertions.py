"""No assertion in the suite holds whatever the code under test does.

A test whose assertion cannot fail reports a check that is not made. This reads
every test module and flags the shapes that hold by construction: an expression
compared with itself, two literals compared, a literal asserted (a tuple is
always true), an ``or`` with a true literal, and an expected value chosen by
the database backend (on the other backend the test compares what it chose
itself: mark such a test for PostgreSQL instead).
"""

import ast
from pathlib import Path

import pytest
from django.conf import settings

TESTS = Path(settings.BASE_DIR) / "tests"
# Comparisons that hold when both sides are the same value.
REFLEXIVE = (ast.Eq, ast.Is, ast.LtE, ast.GtE, ast.In)
BACKEND_NAMES = {"vendor", "on_postgres", "on_sqlite"}


def is_literal(node):
    """A constant, or a container of constants: its value is fixed by the test's text."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(is_literal(element) for element in node.elts)
    return False


def is_true(literal):
    return bool(ast.literal_eval(literal))


def calls_something(node):
    # Comparing a call with itself checks that the callee is deterministic: that can fail.
    return any(isinstance(child, ast.Call | ast.Await) for child in ast.walk(node))


def names_the_backend(node):
    return any(
        (isinstance(child, ast.Name) and child.id in BACKEND_NAMES)
        or (isinstance(child, ast.Attribute) and child.attr in BACKEND_NAMES)
        for child in ast.walk(node)
    )


def why_it_cannot_fail(test):
    """Why the asserted expression ``test`` holds whatever the code does, or None."""
    if isinstance(test, ast.Tuple | ast.JoinedStr) or (is_literal(test) and is_true(test)):
        return "a literal is asserted"
    if (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.Or)
        and any(is_literal(value) and is_true(value) for value in test.values)
    ):
        return "an 'or' with a true literal"
    if isinstance(test, ast.Compare):
        operands = [test.left, *test.comparators]
        for left, op, right in zip(operands, test.ops, operands[1:], strict=False):
            if is_literal(left) and is_literal(right):
                return "two literals are compared"
            if (
                isinstance(op, REFLEXIVE)
                and ast.dump(left) == ast.dump(right)
                and not calls_something(left)
            ):
                return "an expression is compared with itself"
        for operand in operands:
            if isinstance(operand, ast.IfExp) and names_the_backend(operand.test):
                return "the expected value is chosen by the database backend"
    return None


def vacuous_assertions(source, filename="<test>"):
    tree = ast.parse(source, filename=filename)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and (why := why_it_cannot_fail(node.test)):
            yield f"{filename}:{node.lineno}: {why}: assert {ast.unparse(node.test)}"


def test_no_assertion_in_the_suite_holds_whatever_the_code_does():
    found = [
        finding
        for path in sorted(TESTS.rglob("*.py"))
        for finding in vacuous_assertions(path.read_text(), str(path.relative_to(TESTS)))
    ]

    assert found == []


@pytest.mark.parametrize(
    "assertion",
    [
        "assert seen == seen",
        "assert row.owner_id is row.owner_id",
        "assert None == None",
        "assert (1, 2) == (1, 2)",
        "assert (outcome, 'the outcome')",
        "assert f'{outcome}'",
        "assert 'yes'",
        "assert outcome or True",
        "assert seen['database'] == (str(owner.pk) if on_postgres else None)",
        "assert value == ('' if connection.vendor == 'postgresql' else None)",
    ],
)
def test_the_check_flags_an_assertion_that_cannot_fail(assertion):
    assert list(vacuous_assertions(assertion))


@pytest.mark.parametrize(
    "assertion",
    [
        "assert seen == expected",
        "assert digest(text) == digest(text)",
        "assert offending == []",
        "assert outcome is None",
        "assert outcome or fallback",
        "assert seen == (expected if strict else loose)",
        "assert outcome, 'the outcome'",
    ],
)
def test_the_check_passes_an_assertion_that_can_fail(assertion):
    assert list(vacuous_assertions(assertion)) == []
