FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/kozel.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py ./
COPY engine ./engine
COPY storage ./storage
COPY service ./service
COPY handlers ./handlers
COPY ui ./ui
COPY locales ./locales
RUN pip install . \
    && useradd --create-home --uid 10001 kozel \
    && mkdir -p /data && chown kozel:kozel /data

USER kozel
VOLUME ["/data"]
CMD ["python", "bot.py"]
