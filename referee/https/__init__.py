"""HTTPS on the local network: a local certificate authority, the laptop's certificate,
the TLS server, and the page that tells phones how to trust the authority."""
