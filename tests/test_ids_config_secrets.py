"""Credentials in configuration and code text, and e-mail addresses written to dodge
scrapers (issue 16 item 2). Sentences and snippets written for these tests."""

from __future__ import annotations

import pytest

from agent.detect.config_secrets import ConfigSecretDetector, is_secret_key
from agent.detect.obfuscated import ObfuscatedEmailDetector, read_back

SECRETS = ConfigSecretDetector()
EMAILS = ObfuscatedEmailDetector()


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('{"password": "hunter2"}', "hunter2"),
        ("DB_PASSWORD=hunter2", "hunter2"),
        ("export PGPASSWORD=hunter2", "hunter2"),
        ("pass: hunter2", "hunter2"),
        ("  db_pass: 'k9!xQ2#mv'", "k9!xQ2#mv"),
        ("password = 'Tr0ub4dor&3'", "Tr0ub4dor&3"),
        ("spring.datasource.password=s3cr3t!", "s3cr3t!"),
        ("MYSQL_ROOT_PASSWORD: example2024", "example2024"),
        ("const cfg = { apiKey: 'AbCdEf123456' };", "AbCdEf123456"),
        ("client_secret = x8d7f6g5h4", "x8d7f6g5h4"),
        ("Server=db;Database=app;User Id=sa;Password=My$ecretPw;", "My$ecretPw"),
        ("postgresql://admin:s3cret@db.internal:5432/app", "s3cret"),
        ("redis://:hunter22@cache:6379/0", "hunter22"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
        ('$env:API_TOKEN = "abc123def456"', "abc123def456"),
        ("[smtp]\nuser = mailer\npassword = Sunny-Day-42\n", "Sunny-Day-42"),
        ("SLACK_BOT_TOKEN=xoxq-not-a-real-format-123", "xoxq-not-a-real-format-123"),
        ("docker run -e POSTGRES_PASSWORD=pg-local-77 postgres", "pg-local-77"),
        ("connect(host='db', user='app', passwd='Zebra!Crossing9')", "Zebra!Crossing9"),
    ],
)
def test_secret_values_are_found_and_keys_kept(text, secret):
    spans = SECRETS.detect(text)
    assert [s.text for s in spans] == [secret]


@pytest.mark.parametrize(
    "text",
    [
        "password_min_length = 8", "max_tokens: 100", 'password = request.form["password"]', "token = get_token()",
        "password: ${DB_PASSWORD}", "secret_name: my-app-secret", "passport: 123", "tokenizer = AutoTokenizer",
        "password = new_password", "PASSWORD_RESET_URL=/reset", "self.password = password", "password: null",
        "eos_token: '</s>'", "token_type: bearer", "password: <your password>", "API_KEY=your_api_key_here",
    ],
)
def test_settings_about_secrets_and_code_are_not_secrets(text):
    assert SECRETS.detect(text) == []


def test_key_words_split_every_naming_style():
    for key in ("DB_PASSWORD", "dbPassword", "db.password", "PGPASSWORD", "db-password", "AWS_SECRET_ACCESS_KEY", "x_api_key"):
        assert is_secret_key(key), key
    for key in ("password_policy", "passwordHint", "compass", "bypass_cache", "num_tokens", "api_key_header"):
        assert not is_secret_key(key), key


@pytest.mark.parametrize(
    ("text", "address", "plain"),
    [
        ("write to john[at]gmail[dot]com today", "john[at]gmail[dot]com", "john@gmail.com"),
        ("john (at) gmail (dot) com", "john (at) gmail (dot) com", "john@gmail.com"),
        ("reach me: john dot baker at gmail dot com.", "john dot baker at gmail dot com", "john.baker@gmail.com"),
        ("j o h n @ g m a i l . c o m", "j o h n @ g m a i l . c o m", "john@gmail.com"),
        ("mail anna.k [at] uni-bonn [dot] de", "anna.k [at] uni-bonn [dot] de", "anna.k@uni-bonn.de"),
        ("john@gmail[.]com", "john@gmail[.]com", "john@gmail.com"),
        ("JOHN AT GMAIL DOT COM", "JOHN AT GMAIL DOT COM", "JOHN@GMAIL.COM"),
    ],
)
def test_obfuscated_emails(text, address, plain):
    assert [s.text for s in EMAILS.detect(text)] == [address]
    assert read_back(address) == plain


@pytest.mark.parametrize("text", ["look at this dot com bubble", "meet me at home dot com", "plain john@gmail.com here", "see you at 5 dot com"])
def test_prose_and_plain_addresses_are_not_obfuscated_emails(text):
    assert EMAILS.detect(text) == []


def test_one_time_grant_values_in_a_form_body_or_query_string():
    from agent.detect.config_secrets import ConfigSecretDetector

    text = ('curl https://auth.example.net/token -d "client_id=3000.QW12ER34TY56UI78OP" '
            '-d "code=3000.9a8b7c6d5e4f3a2b1c0d.77aa88bb" && open "https://app.example.net/cb?code=a1b2c3d4e5f6a7b8c9d0&state=ok"')
    found = {s.text for s in ConfigSecretDetector().detect(text)}
    assert {"3000.QW12ER34TY56UI78OP", "3000.9a8b7c6d5e4f3a2b1c0d.77aa88bb", "a1b2c3d4e5f6a7b8c9d0"} <= found
    # Short numbers and names under the same key words are settings, not secrets.
    assert not ConfigSecretDetector().detect("error_code=404&zip_code=12345&client_name=north_office")
