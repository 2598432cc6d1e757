"""Play by email: the email adapter over the same game service (bot/email/README.md)."""
