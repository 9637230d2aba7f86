"""A small LoCoMo-format dataset, with the quirks of the real one."""

import json


def tiny_dataset():
    return [
        {
            "sample_id": "conv-a",
            "conversation": {
                "speaker_a": "Alice",
                "speaker_b": "Bob",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Alice", "dia_id": "D1:1", "text": "I just got a Kindle."},
                    {
                        "speaker": "Bob",
                        "dia_id": "D1:2",
                        "text": "Nice! I adopted a dog named Rex.",
                        "img_url": ["https://example.invalid/rex.jpg"],
                        "blip_caption": "a photo of a brown dog on a sofa",
                    },
                    {"speaker": "Alice", "dia_id": "D1:3", "text": "I drive a Honda Civic."},
                ],
                "session_2_date_time": "10:15 am on 12 June, 2023",
                "session_2": [
                    {"speaker": "Bob", "dia_id": "D2:1", "text": "How is the Kindle going?"},
                    {"speaker": "Alice", "dia_id": "D2:2", "text": "I prefer green tea."},
                ],
                # A date of a session that does not exist, as in the real data.
                "session_3_date_time": "9:00 am on 1 July, 2023",
            },
            "qa": [
                {
                    "question": "What does Alice drive?",
                    "answer": "A Honda Civic",
                    "evidence": ["D1:3"],
                    "category": 4,
                },
                {
                    "question": "What is the name of Bob's dog?",
                    "answer": "Rex",
                    "evidence": ["D1:2; D2:1"],
                    "category": 1,
                },
                {
                    "question": "What tea does Alice prefer?",
                    "answer": "Green tea",
                    "evidence": ["D2:2", "D9:9"],
                    "category": 2,
                },
                {
                    "question": "What did Alice say about her cat?",
                    "adversarial_answer": "She has none",
                    "evidence": [],
                    "category": 5,
                },
            ],
            "observation": {
                "session_1_observation": {
                    "Alice": [["Alice got a Kindle.", "D1:1"], ["Alice drives a Civic.", "D1:3"]],
                    "Bob": [["Bob adopted a dog named Rex.", "D1:2"]],
                },
                "session_2_observation": {"Alice": [["Alice prefers green tea.", "D2:2"]]},
            },
        },
        {
            "sample_id": "conv-b",
            "conversation": {
                "speaker_a": "Carol",
                "speaker_b": "Dan",
                "session_1_date_time": "8:00 pm on 3 March, 2023",
                "session_1": [
                    {"speaker": "Carol", "dia_id": "D1:1", "text": "I live in Lisbon now."},
                    {"speaker": "Dan", "dia_id": "D1:2", "text": "I work as a pilot."},
                ],
            },
            "qa": [
                {
                    "question": "Where does Carol live?",
                    "answer": "Lisbon",
                    "evidence": ["D1:1"],
                    "category": 4,
                }
            ],
            "observation": {},
        },
    ]


def write_tiny_dataset(directory):
    path = directory / "tiny-locomo.json"
    path.write_text(json.dumps(tiny_dataset()), encoding="utf-8")
    return path
