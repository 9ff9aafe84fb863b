"""The model's second opinion (issue 18): off by default, asked only about parts the rules left uncertain, and
able only to raise a part's level. select.py picks the parts, request.py is what the model is sent and how its
answer is read, client.py the one HTTP call, cache.py the answers kept in the wisp home, opinion.py the step
the pipeline runs between the rules and the gate."""
