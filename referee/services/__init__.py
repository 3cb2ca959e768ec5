"""Glue between the web layer and the store: load, apply a rule, persist, in one transaction."""
