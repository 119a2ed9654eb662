"""A simulated WhatsApp Cloud API, for the tests and the demo: the Graph API's messages and
media endpoints with Meta's request checks, errors and rate limits, and the webhook pushes of
customers' messages and message statuses, signed with the app secret."""
