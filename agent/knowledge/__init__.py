"""What Veil knows about language and the world, shared by every stage: name lists
(`names`), places (`places`), organisation words (`org_words`), common English words
(`words`)."""
