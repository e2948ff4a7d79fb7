"""The deployment files say what the service needs: a pinned, non-root image with a health
check, and Kubernetes objects that probe /healthz and scale a stateless Deployment."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
K8S = ROOT / "deploy" / "k8s"


def instructions(keyword: str) -> list[str]:
    text = DOCKERFILE.replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in text.splitlines()
            if line.split(None, 1)[:1] == [keyword]]


def test_dockerfile_base_is_slim_python_311_pinned_to_a_patch_release():
    (base,) = instructions("FROM")
    assert re.fullmatch(r"python:3\.11\.\d+-slim(-\w+)?(@sha256:[0-9a-f]{64})?", base), base


def test_dockerfile_runs_as_a_non_root_user():
    users = instructions("USER")
    assert users and users[-1] not in ("root", "0")


def test_dockerfile_health_check_calls_healthz_and_gunicorn_serves_the_app():
    (check,) = instructions("HEALTHCHECK")
    assert "/healthz" in check
    (cmd,) = instructions("CMD")
    assert "gunicorn" in cmd and "gunicorn.conf.py" in cmd and "service.app:create_app()" in cmd


def test_dockerfile_copies_every_package():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]
    copied = " ".join(instructions("COPY"))
    for package in packages:
        assert re.search(rf"\b{package}\b", copied), package
    assert "gunicorn.conf.py" in copied and "openapi.yaml" in copied


def load(name: str) -> dict:
    return yaml.safe_load((K8S / name).read_text())


def test_deployment_probes_healthz_and_requests_resources():
    deployment = load("deployment.yaml")
    assert deployment["kind"] == "Deployment"
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] == "/healthz"
    assert set(container["resources"]["requests"]) >= {"cpu", "memory"}
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True


def test_service_and_autoscaler_point_at_the_deployment():
    deployment, service, hpa = load("deployment.yaml"), load("service.yaml"), load("hpa.yaml")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert service["kind"] == "Service"
    assert service["spec"]["selector"].items() <= labels.items()
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert hpa["kind"] == "HorizontalPodAutoscaler"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    assert hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] > 2
