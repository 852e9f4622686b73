"""Code and markup in technical messages: masked before the parse (no entity, concept or
sentence from inside them), put back verbatim in the restatement, searchable by their
identifiers' words; a long message makes a bounded number of sentence vectors, and a fact in
its unparsed rest is still found. Real spaCy, the real embedder, the real embedded database."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem import Settings, Turn
from graphmem.ingest.markup import mask, split_sentences
from graphmem.ingest.plan import PARSE_PROSE_CHARS, SENTENCE_VIEWS, _sentences, extract_batch
from graphmem.models import Models

CODE_AND_LATEX = """\
Sure, Maria! Here is the login route for your Flask app in Lisbon:

```python
from werkzeug.security import generate_password_hash, check_password_hash

@app.route("/login", methods=["POST"])
def login():
    data = request.get_json()
    user = User.query.filter_by(username=data["username"]).first()
    return response.json(user)  # Paris London Obama
```

The `request.get_json` call reads the body, and `generate_password_hash(password` hashes it.
The probability is \\( p_{\\text{Smith}} = \\frac{n!}{k_1!} \\) and \\[ \\sum_{i} \\text{Johnson}_i \\] overall.
"""

WHEN = datetime(2024, 3, 15, tzinfo=timezone.utc)


def turn(text: str, speaker: str = "assistant", n: int = 0) -> Turn:
    return Turn(source_id=f"m{n}", speaker=speaker, text=text, session="1", session_date=WHEN, line=n + 1,
                index=n, message_id=f"m{n}")


@pytest.fixture(scope="module")
def models() -> Models:
    return Models(Settings())


def test_mask_replaces_code_latex_headings_and_tags_and_leaves_prices():
    text = "# Setup\nCosts $5 and $10. Run `pip install x` then \\(a^2\\) and <br/> done.\n```\nprint(1)\n```\n"
    masked = mask(text)
    assert [kind for kind, _ in masked.spans] == ["heading", "inline", "math", "tag", "fence"]
    assert "$5 and $10" in masked.text and "pip" not in masked.text and "print" not in masked.text
    assert masked.restore(masked.text) == text


def test_mask_leaves_plain_prose_alone():
    text = "I moved to Berlin in June, and it cost me $300 to ship my books."
    masked = mask(text, prose_limit=PARSE_PROSE_CHARS)
    assert masked.text == text and masked.spans == []


def test_typographic_quotes_and_unmarked_contractions_are_parsed_plainly_and_code_stays_as_written():
    masked = mask("I don\u2019t like \u201csmart\u201d quotes in `print(\u2018x\u2019)`.")
    assert masked.text.startswith("I don't like \"smart\" quotes in ")
    assert masked.restore(masked.text) == "I don't like \"smart\" quotes in `print(\u2018x\u2019)`."
    assert mask("It\u2019s Joe\u2019s.").text == "It's Joe's."
    assert mask("Im moving, dont ask. whats up? So Ive no idea").text == \
        "I'm moving, don't ask. what's up? So I've no idea"
    # words that are contractions unmarked too, and names, stay as typed
    as_typed = "ill and well, its fine; Jony Ive met Yoon-ah Im"
    assert mask(as_typed).text == as_typed


def test_a_name_typed_with_a_typographic_apostrophe_is_the_one_typed_plain(mem, user):
    """One person's "Trader Joe’s" is another's "Trader Joe's": one entity, matched by its name;
    the memory keeps the text as it was typed."""
    said = "I do our weekly shop at Trader Joe’s on Saturdays."
    mem.add([("user", said)], user=user, at=WHEN)
    asked = mem.recall("What do I buy at Trader Joe's?", user=user)
    assert any(e.how == "name" and e.name.startswith("Trader Joe") for e in asked.analysis.entities)
    assert [m.text for m in mem.memories(user)] == [said]


def test_a_long_message_past_the_parse_limit_keeps_its_rest_verbatim():
    prose = " ".join(f"Sentence number {i} talks about topic {i}." for i in range(200))
    masked = mask(prose, prose_limit=500)
    assert len(masked.text) < 700
    assert masked.spans[-1][0] == "rest"
    assert masked.restore(masked.text) == prose
    assert masked.rest_sentences()[-1] == "Sentence number 199 talks about topic 199."


def test_split_sentences_cuts_at_punctuation_and_lines_and_drops_bare_code():
    assert split_sentences("One here. Two there!\n- three\nzqxspan0\n") == ["One here.", "Two there!", "- three"]


def test_no_person_or_place_comes_from_code_or_latex(models):
    [x] = extract_batch(models, [turn(CODE_AND_LATEX)], ["user", "assistant"])
    names = {(m.name, m.kind) for m in x.mentions}
    kinds = {name: kind for name, kind in names}
    assert "Maria" in kinds and "Lisbon" in kinds  # prose outside the code is still read
    for noise in ("Paris", "London", "Obama", "Smith", "Johnson", "request.get_json", "response.json"):
        assert not any(noise in name for name, _ in names), (noise, names)
    assert not any(kind in ("PERSON", "GPE", "LAW") and "password" in name.lower() for name, kind in names)
    assert not any(name.startswith("#") or name in ("import", "def", "return") for name, _ in names)


def test_restatement_keeps_code_verbatim_and_sentences_leave_it_out(models):
    [x] = extract_batch(models, [turn(CODE_AND_LATEX)], ["user", "assistant"])
    assert 'data = request.get_json()\n    user = User.query.filter_by(username=data["username"]).first()' in x.restated
    assert "`generate_password_hash(password`" in x.restated
    assert "user's Flask app" in x.restated  # the addressee is still made explicit around the code
    assert not any("def login" in s or "werkzeug" in s for s in x.sentences)
    assert any("reads the body" in s for s in x.sentences)


def test_code_identifiers_are_searchable_words(models):
    [x] = extract_batch(models, [turn(CODE_AND_LATEX)], ["user", "assistant"])
    for word in ("generate", "password", "hash", "werkzeug", "json"):
        assert word in x.terms, word


def long_technical_message(fact: str) -> str:
    parts = []
    for i in range(12):
        parts.append(f"### Step {i}\nThis step configures part {i} of the pipeline and explains why it matters. "
                     f"It also checks the inputs of stage {i} carefully.\n")
        parts.append("```js\n" + "\n".join(f"const value{j} = compute({j}); // line {j}" for j in range(10)) + "\n```\n")
    parts.append(fact)
    return "\n".join(parts)


def test_a_long_code_heavy_message_makes_at_most_the_bounded_sentence_vectors(models):
    text = long_technical_message("Finally, remember that the staging server listens on port 8443 behind the Frankfurt gateway.")
    assert len(text) > PARSE_PROSE_CHARS
    [x] = extract_batch(models, [turn(text)], ["user", "assistant"])
    views = _sentences(turn(text), x)
    assert 1 < len(views) <= SENTENCE_VIEWS
    assert not any("const value" in v for v in views)
    assert any("8443" in v for v in views)  # the last sentence is always among the views
    assert x.restated.endswith("Frankfurt gateway.")
    assert "8443" in x.terms or "frankfurt" in x.terms


def test_a_fact_at_the_end_of_a_long_message_is_recalled(mem, user):
    fact = "Finally, remember that the staging server listens on port 8443 behind the Frankfurt gateway."
    turns = [turn("Can you help me set up the deployment pipeline for the new service?", "user", 0),
             turn(long_technical_message(fact), "assistant", 1),
             turn("Thanks, I also need to plan a birthday dinner for my sister next week.", "user", 2),
             turn("Sure! Italian food is a safe choice for a birthday dinner.", "assistant", 3)]
    summary = mem.ingest(turns, user=user, conversation="long")
    assert summary.sentences <= SENTENCE_VIEWS + 2
    stored = mem.driver.run("MATCH (m:Memory {user_id: $u, source_id: 'm1'})-[:HAS_SENTENCE]->(s:Sentence) "
                            "RETURN count(s) AS n", {"u": user})
    assert 1 < stored[0]["n"] <= SENTENCE_VIEWS
    found = mem.recall("Which port does the staging server listen on?", user=user, k=2)
    assert found.memories[0].source_id == "m1"
