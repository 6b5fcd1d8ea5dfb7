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
COPY localtable ./localtable
COPY locales ./locales
RUN pip install . \
    && useradd --create-home --uid 10001 kozel \
    && mkdir -p /data && chown kozel:kozel /data

USER kozel
VOLUME ["/data"]
# /healthz answers on HEALTH_PORT under long polling, on WEBHOOK_PORT with a webhook (both 8080
# by default); a SIGTERM stops the bot within STOP_GRACE (8 s, below docker stop's 10 s)
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=3)"]
CMD ["python", "bot.py"]
