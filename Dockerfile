# Cardavia rules service: stateless, so scale by running more replicas behind a load balancer.
# By default the image runs the production stack of `make serve-prod` (deploy/stack.py):
# nginx on PORT, buffering every request and answer, in front of the rules pool and the AI
# pool on loopback ports. Bare gunicorn's sync workers would each be held by a client that
# stalls its body. Kubernetes runs each part in a container of its own: deploy/k8s/.
# The first stage builds the wheel with gcc, the compiled search core included
# (rules/ai/core/*.c, setup.py); the image itself holds no compiler.
FROM python:3.11.14-slim-bookworm AS wheel
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md openapi.yaml ./
COPY rules ./rules
COPY schemas ./schemas
COPY service ./service
COPY render ./render
# A wheel without the core would serve a weaker AI: the build fails instead.
RUN pip wheel --no-deps --wheel-dir /wheels . \
    && python -c "import sys, zipfile, glob; w, = glob.glob('/wheels/*.whl'); sys.exit(not any(n.startswith('rules/ai/_core') for n in zipfile.ZipFile(w).namelist()))"

FROM python:3.11.14-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    WEB_CONCURRENCY=2

# Debian's nginx, the buffering proxy of deploy/nginx/nginx.conf.
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 cardavia

WORKDIR /app
# The dependencies alone first, read from pyproject.toml: this layer is rebuilt when they
# change, not when the source does.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY --from=wheel /wheels /wheels
RUN pip install --no-deps /wheels/*.whl && rm -rf /wheels
COPY README.md gunicorn.conf.py openapi.yaml ./
COPY deploy/stack.py ./deploy/stack.py
COPY deploy/nginx ./deploy/nginx

USER 10001
EXPOSE 8000
# nginx's own /livez: the stack stops as a whole when any of its processes exits, and a
# health check queued behind the workers would call a busy container a dead one.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD python -c "import urllib.request,os; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/livez', timeout=2)" || exit 1
CMD ["python", "deploy/stack.py"]
