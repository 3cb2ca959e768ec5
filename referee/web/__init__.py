"""App-wide web plumbing: the request's database and referee, security, languages,
errors and the page-or-fragment answer. Only the app factory and the CLI import it."""
