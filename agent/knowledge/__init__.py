"""What Veil knows about language and the world, shared by every stage: name lists
(`names`), the words around a name (`person_words`: titles, suffixes, relations, and
`parse_name`), words that look like names but are not (`not_names`), organisation words
and legal forms (`org_words`), places and street words (`places`), common English words
(`words`)."""
