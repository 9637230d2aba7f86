"""The owner's challenges in the API: list them, read one, keep or replace the memory."""
