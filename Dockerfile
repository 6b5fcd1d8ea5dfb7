FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/kozel.sqlite3

# FriBiDi for Pillow's complex text layout (its wheels bundle libraqm and HarfBuzz): names
# in Arabic are drawn joined in the table pictures (ui/picture.py, COMPLEX_TEXT)
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py ./
COPY engine ./engine
COPY storage ./storage
COPY service ./service
COPY delivery ./delivery
COPY handlers ./handlers
COPY ui ./ui
COPY locales ./locales
RUN pip install . \
    && useradd --create-home --uid 10001 kozel \
    && mkdir -p /data && chown kozel:kozel /data

USER kozel
VOLUME ["/data"]
CMD ["python", "bot.py"]
