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

WORKDIR /app
# The code reads data/ (game definitions, fonts) beside the packages, so the project is
# installed in place (editable) rather than copied into site-packages.
COPY pyproject.toml README.md ./
COPY data ./data
COPY rules ./rules
COPY render ./render
COPY bot ./bot
RUN pip install -e . && python -m rules moves chess > /dev/null

USER fairypost
VOLUME /data

HEALTHCHECK --interval=60s --timeout=15s --start-period=30s --retries=3 \
    CMD ["fairypost", "health"]

CMD ["fairypost", "run"]
