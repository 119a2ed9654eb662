"""The only code that speaks HTTP to the Partner API: models, errors, client, caches, signing."""
