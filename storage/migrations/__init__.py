"""Alembic migration scripts (package so that they ship with the code)."""
