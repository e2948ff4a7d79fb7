# Cardavia rules service: stateless, so scale by running more replicas behind a load balancer.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    WEB_CONCURRENCY=2

WORKDIR /app
COPY pyproject.toml README.md gunicorn.conf.py openapi.yaml ./
COPY rules ./rules
COPY schemas ./schemas
COPY service ./service
COPY render ./render
RUN pip install -e . && useradd --create-home --uid 10001 cardavia

USER cardavia
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD python -c "import urllib.request,os; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=2)" || exit 1
CMD ["gunicorn", "--config", "gunicorn.conf.py", "service.app:create_app()"]
