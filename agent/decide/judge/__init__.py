"""The learned keep-or-swap judge (issue 11): features of each detected entity and of the
prompt around it, a small trained head (resources/judge.json), and the script that trains
it from the fit half of the dev data plus prompts we write ourselves."""
