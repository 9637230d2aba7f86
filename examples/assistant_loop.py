"""An assistant's turns against Reverie, the way a runtime takes them.

Each turn appends the person's message, recalls what Reverie knows before answering,
appends the answer and completes the run; completing the run asks Reverie to form
memories from the conversation, which its worker does in the background once the
conversation has been quiet for a while (30 s by default).

Against `make run` (copy the `export TOKEN=...` line it prints):

    python3 -m venv clients/python/.venv
    clients/python/.venv/bin/pip install ./clients/python
    REVERIE_TOKEN=$TOKEN clients/python/.venv/bin/python examples/assistant_loop.py

`--wait` then waits (up to two minutes) for the worker to form memories from this
conversation and prints them. It talks to REVERIE_URL when set, otherwise to
http://127.0.0.1:$PORT (8000 without PORT), where `make run` serves.
"""

import argparse
import os
import sys
import time
from datetime import datetime

from reverie_client import Recall, ReverieClient, ServiceUnavailableError

MESSAGES = [
    "Which watch do I have again?",
    "By the way, I just adopted a dog called Biscuit.",
    "What units should you use with me?",
]


def answer(message: str, recalled: Recall) -> str:
    """Stands in for the model: a real runtime puts the recalled memories in its prompt."""
    beliefs = [item.text for item in recalled.items if item.kind == "belief"]
    if beliefs:
        return f"From what I remember: {beliefs[0]}"
    return "Noted!"


def show(recalled: Recall) -> None:
    if not recalled.items:
        print("  (nothing recalled)")
    for item in recalled.items:
        label = item.derived_kind if item.kind == "derived" else item.status or item.kind
        print(f"  recalled [{item.kind}, {label}] {item.text}")


def wait_for_formation(reverie: ReverieClient, session_id: str, seconds: float) -> None:
    print(f"\nwaiting up to {seconds:.0f} s for the worker to form memories ...")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        formed = [
            memory
            for memory in reverie.iter_memories(status="provisional")
            if any(source.session_id == session_id for source in memory.sources)
        ]
        if formed:
            for memory in formed:
                print(f"  formed [{memory.status}, {memory.type}] {memory.statement}")
            return
        time.sleep(5)
    print("  nothing formed yet: is the worker (manage.py qcluster) running?")


def service_url() -> str:
    # `PORT=8124 make run` serves on that port: the same shell then reaches it here too.
    return os.environ.get("REVERIE_URL") or f"http://127.0.0.1:{os.environ.get('PORT', '8000')}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wait", action="store_true", help="wait for formation and show it")
    args = parser.parse_args()
    token = os.environ.get("REVERIE_TOKEN") or os.environ.get("TOKEN")
    if not token:
        print("Set REVERIE_TOKEN to the API token `make run` printed.", file=sys.stderr)
        return 2

    with ReverieClient(service_url(), token=token) as reverie:
        try:
            conversation = reverie.conversation(f"assistant-loop-{datetime.now():%Y%m%d-%H%M%S}")
        except ServiceUnavailableError as error:
            print(f"Reverie is not reachable at {reverie.base_url} ({error}).", file=sys.stderr)
            return 1
        session = conversation.session
        print(f"conversation {session.external_id} (session {session.id})")
        for message in MESSAGES:
            print(f"\nuser: {message}")
            with conversation.turn(message) as turn:
                # Recall before answering: memories, and derived views of them.
                recalled = turn.recall(limit=5, include=["derived"])
                show(recalled)
                reply = answer(message, recalled)
                turn.reply(reply)
            print(f"assistant: {reply}")
            print(f"  run {turn.run.id}: {turn.run.status}")
        if args.wait:
            wait_for_formation(reverie, session.id, seconds=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
