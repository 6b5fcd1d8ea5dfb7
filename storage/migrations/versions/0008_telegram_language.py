"""A person's Telegram language kept with them (issue 20, "Restarts").

``users.telegram_language``: the ``language_code`` Telegram last reported for the person
(``"en"``, ``"uk-UA"``), used where they chose no language with /lang.  It lived only in
the memory of the process before, so a restart spoke the default language to everyone who
had not written since.  NULL: never reported (as for every row written before).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("telegram_language", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("telegram_language")
