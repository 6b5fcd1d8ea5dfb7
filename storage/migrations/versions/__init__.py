"""Alembic revisions, applied in order by ``storage.database.Database.migrate``."""
