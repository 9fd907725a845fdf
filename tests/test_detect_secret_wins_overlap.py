"""A secret is never lost to an overlapping span of another type: the password of a
connection URL read in part as an e-mail address ("...&3@db.host") went out as written."""

from agent.bench.metrics import bench_conversation


def test_a_url_password_with_an_ampersand_is_swapped(privacy_engine):
    text = 'DATABASE_URL = "postgres://svc:Gl4ss&Moon9@db.corp.lan:5432/app"'
    result = privacy_engine.sanitize(text, bench_conversation("secret-overlap"))
    assert "Gl4ss" not in result.sanitized and "Moon9" not in result.sanitized, result.sanitized
    assert result.sanitized.startswith('DATABASE_URL = "postgres://svc:'), result.sanitized


def test_a_developer_named_in_a_todo_is_a_private_person(privacy_engine):
    # A comment elsewhere in the file mentions "Paperback books": no work's character.
    text = (
        "SIZES = {\n"
        "    'a5': (420, 595),  # Paperback books\n"
        "}\n"
        "# TODO(Renata Okonkwo): check the rounding\n"
    )
    result = privacy_engine.sanitize(text, bench_conversation("todo-owner"))
    assert "Okonkwo" not in result.sanitized, result.sanitized
