# fairypost, the Discord bot, in a container.
#
#   docker build -t fairypost .
#   docker run -d --name fairypost --restart unless-stopped \
#       -e DISCORD_TOKEN=your-token -v fairypost-data:/data fairypost
#
# The game database lives on the volume /data (FAIRYPOST_DB); the token comes from the
# environment, never from the image. `fairypost play` works in it too:
#   docker run -it --rm -v fairypost-data:/data fairypost fairypost play
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    FAIRYPOST_DB=/data/fairypost.sqlite3

RUN useradd --create-home --uid 10001 --user-group --shell /usr/sbin/nologin fairypost \
    && mkdir /data && chown fairypost:fairypost /data

WORKDIR /src
# Installed like any user's install (not editable): the game definitions and fonts go
# into site-packages as the package fairypost_data, and the sources are removed after.
COPY pyproject.toml setup.py README.md ./
COPY data ./data
COPY language ./language
COPY rules ./rules
COPY ai ./ai
COPY render ./render
COPY bot ./bot
RUN pip install . && cd / && rm -rf /src \
    && python -c "import rules; from render.pen import font_path; [rules.start(g) for g in rules.variants()]; font_path('NotoSans-Light.ttf')"
WORKDIR /home/fairypost

USER fairypost
VOLUME /data

# this container's own process: its database, listener, life lock and adapters (docs/health.md)
HEALTHCHECK --interval=60s --timeout=15s --start-period=30s --retries=3 \
    CMD ["fairypost", "health", "--here"]

CMD ["fairypost", "run"]
