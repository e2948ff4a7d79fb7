"""The deployment files say what the service needs: a pinned, non-root
image whose dependency layer is cached apart from the source; Kubernetes objects that pass
the API's schemas offline and Pod Security "restricted", one Deployment, Service,
autoscaler and PodDisruptionBudget per pool, CPU requests that match the workers, and the
nginx sidecar configured from the very file that `make serve-prod` runs."""

from __future__ import annotations

import copy
import ipaddress
import json
import re
import runpy
import tomllib
from pathlib import Path

import kubernetes_validate
import pytest
import setuptools
import yaml

from service.app import create_app

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
KUBERNETES_VERSION = "1.37.0"  # the newest schemas kubernetes-validate ships (its default)
# The newest 3.11 patch release known when this was written; a newer one passes too.
LATEST_311_PATCH = 14


def instructions(keyword: str) -> list[str]:
    text = DOCKERFILE.replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in text.splitlines()
            if line.split(None, 1)[:1] == [keyword]]


def stages() -> list[str]:
    """The Dockerfile's stages, each from its FROM line on."""
    text = DOCKERFILE.replace("\\\n", " ")
    return ["FROM" + part for part in re.split(r"^FROM", text, flags=re.M)[1:]]


def test_dockerfile_base_is_slim_python_311_at_a_current_patch_release():
    bases = [base.split(" AS ")[0] for base in instructions("FROM")]
    assert len(set(bases)) == 1  # the wheel is built for the Python that runs it
    found = re.fullmatch(r"python:3\.11\.(\d+)-slim(-\w+)?(@sha256:[0-9a-f]{64})?", bases[0])
    assert found, bases[0]
    assert int(found[1]) >= LATEST_311_PATCH, bases[0]


def test_dockerfile_builds_the_compiled_core_in_a_stage_of_its_own():
    """Multi-stage: gcc builds the wheel and its compiled search core (setup.py), which
    the image installs without a compiler of its own, failing the build without the core."""
    build, image = stages()
    assert "AS wheel" in build.splitlines()[0]
    assert "gcc" in build and "setup.py" in build and "pip wheel" in build
    assert "rules/ai/_core" in build  # the wheel is checked for the core
    assert "--from=wheel" in image and "gcc" not in image


def test_dockerfile_runs_as_a_non_root_user():
    users = instructions("USER")
    assert users and users[-1] not in ("root", "0")


def test_dockerfile_serves_behind_the_proxy_and_checks_the_edge():
    """Issue 40.4: the image's default command is the whole stack, nginx in front (bare
    gunicorn stops under a few stalled bodies: tests/test_stack.py runs this command);
    its health check is nginx's own /livez, never queued behind a worker."""
    (check,) = instructions("HEALTHCHECK")
    assert "/livez" in check
    (cmd,) = instructions("CMD")
    assert json.loads(cmd) == ["python", "deploy/stack.py"]


def test_dockerfile_copies_every_package():
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]["find"]
    packages = {name.split(".")[0] for name in setuptools.find_namespace_packages(
        str(ROOT), include=find["include"])}
    assert {"rules", "schemas", "service", "render"} <= packages
    copied = " ".join(instructions("COPY"))
    for package in packages:
        assert re.search(rf"\b{package}\b", copied), package
    for needed in ("gunicorn.conf.py", "openapi.yaml", "deploy/stack.py", "deploy/nginx"):
        assert needed in copied, needed


def test_dockerfile_installs_dependencies_before_copying_the_source():
    # The image's instructions in order: the first COPY brings pyproject.toml alone, and the
    # pip install of the dependencies comes before the service's wheel is copied in.
    steps = [line.split(None, 1) for line in stages()[-1].splitlines()
             if line.split(None, 1)[:1] in (["COPY"], ["RUN"])]
    copies = [i for i, (kind, _) in enumerate(steps) if kind == "COPY"]
    assert steps[copies[0]][1].split() == ["pyproject.toml", "./"]
    first_source = next(i for i in copies if "--from=wheel" in steps[i][1])
    assert any(kind == "RUN" and "pip install" in args for kind, args in
               steps[copies[0]:first_source])
    # Debian's nginx, for the sidecar.
    assert any(kind == "RUN" and "apt-get install" in args and "nginx" in args
               for kind, args in steps)


def test_dockerignore_keeps_the_build_context_to_the_source():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for path in (".git", ".venv", "tests", "bench"):
        assert path in ignored, path


# -- Kubernetes --------------------------------------------------------------------------------


def documents() -> list[dict]:
    return [doc for path in sorted(K8S.glob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text()) if doc]


def of_kind(kind: str) -> list[dict]:
    return [d for d in documents() if d["kind"] == kind]


def env(container: dict) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}


def secret_env(container: dict) -> dict[str, dict]:
    return {e["name"]: e["valueFrom"]["secretKeyRef"] for e in container.get("env", [])
            if "secretKeyRef" in e.get("valueFrom", {})}


def test_every_manifest_passes_the_kubernetes_schemas_offline():
    docs = documents()
    assert {d["kind"] for d in docs} >= {"Deployment", "Service", "HorizontalPodAutoscaler",
                                         "PodDisruptionBudget"}
    for doc in docs:
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)


def test_the_schema_check_catches_a_misspelt_field():
    deployment = copy.deepcopy(of_kind("Deployment")[0])
    deployment["spec"]["template"]["spec"]["containers"][0]["imagePullPolicyy"] = "Always"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSION, strict=True)


def test_kustomization_lists_every_manifest_and_makes_the_nginx_configmap_of_deploy_nginx():
    kustomization = yaml.safe_load((DEPLOY / "kustomization.yaml").read_text())
    assert sorted(DEPLOY / r for r in kustomization["resources"]) == sorted(K8S.glob("*.yaml"))
    (generator,) = kustomization["configMapGenerator"]
    (entry,) = generator["files"]
    key, _, path = entry.partition("=")
    assert (DEPLOY / path).resolve() == (DEPLOY / "nginx" / "nginx.conf").resolve()
    assert key == "nginx.conf"
    # The sidecar reads that ConfigMap, mounted where its command looks for the template.
    (rules,) = [d for d in of_kind("Deployment") if d["metadata"]["name"] == "cardavia"]
    pod = rules["spec"]["template"]["spec"]
    (volume,) = [v for v in pod["volumes"] if v.get("configMap", {}).get("name")
                 == generator["name"]]
    (nginx,) = [c for c in pod["containers"] if "nginx" in c.get("command", [])]
    (mount,) = [m for m in nginx["volumeMounts"] if m["name"] == volume["name"]]
    command = nginx["command"]
    assert command[command.index("--template") + 1] == f"{mount['mountPath']}/{key}"


@pytest.mark.parametrize("name", ["cardavia", "cardavia-ai"])
def test_each_pool_has_its_service_autoscaler_and_disruption_budget(name):
    (deployment,) = [d for d in of_kind("Deployment") if d["metadata"]["name"] == name]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    (service,) = [s for s in of_kind("Service") if s["metadata"]["name"] == name]
    assert service["spec"]["selector"].items() <= labels.items()
    (hpa,) = [h for h in of_kind("HorizontalPodAutoscaler")
              if h["spec"]["scaleTargetRef"]["name"] == name]
    assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
    assert hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] > 2
    (pdb,) = [p for p in of_kind("PodDisruptionBudget")
              if p["spec"]["selector"]["matchLabels"].items() <= labels.items()]
    assert pdb["spec"].get("maxUnavailable", 0) >= 1 or pdb["spec"]["minAvailable"] < \
        hpa["spec"]["minReplicas"]  # a budget that still lets a node drain


def test_services_select_only_their_own_pool():
    deployments = of_kind("Deployment")
    for service in of_kind("Service"):
        selected = [d["metadata"]["name"] for d in deployments if service["spec"]["selector"]
                    .items() <= d["spec"]["template"]["metadata"]["labels"].items()]
        assert selected == [service["metadata"]["name"]]


@pytest.mark.parametrize("deployment", of_kind("Deployment"), ids=lambda d: d["metadata"]["name"])
def test_pods_pass_pod_security_restricted(deployment):
    pod = deployment["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"].get("runAsUser", 1) != 0
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        assert not pod.get(key), key
    allowed = {"configMap", "emptyDir", "projected", "secret", "downwardAPI",
               "persistentVolumeClaim", "ephemeral", "csi"}
    for volume in pod.get("volumes", []):
        assert set(volume) - {"name"} <= allowed, volume
    for c in pod["containers"] + pod.get("initContainers", []):
        sc = c["securityContext"]
        assert sc["allowPrivilegeEscalation"] is False, c["name"]
        assert sc["capabilities"]["drop"] == ["ALL"] and not sc["capabilities"].get("add")
        assert not sc.get("privileged"), c["name"]
        assert sc.get("runAsUser", 1) != 0 and sc.get("runAsNonRoot", True) is True
        assert sc.get("seccompProfile", {"type": "RuntimeDefault"})["type"] in (
            "RuntimeDefault", "Localhost")
        assert sc["readOnlyRootFilesystem"] is True, c["name"]
        assert all("hostPort" not in p for p in c.get("ports", []))


def cores(quantity: str) -> float:
    return int(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def gunicorn_containers() -> list[tuple[dict, dict]]:
    return [(d, c) for d in of_kind("Deployment")
            for c in d["spec"]["template"]["spec"]["containers"] if "CARDAVIA_POOL" in env(c)]


def test_each_gunicorn_requests_one_core_per_worker():
    found = gunicorn_containers()
    assert {env(c)["CARDAVIA_POOL"] for _, c in found} == {"rules", "ai"}
    for _, c in found:
        assert cores(c["resources"]["requests"]["cpu"]) == int(env(c)["WEB_CONCURRENCY"])
        assert set(c["resources"]["requests"]) >= {"cpu", "memory"}


def gunicorn_settings(environ: dict[str, str], monkeypatch) -> dict:
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_writes_nothing_to_a_read_only_root(monkeypatch):
    for deployment, c in gunicorn_containers():
        settings = gunicorn_settings(env(c), monkeypatch)
        assert settings["control_socket_disable"] is True
        assert settings.get("pidfile") is None
        # The heartbeat files go to a memory-backed emptyDir mounted in the container.
        volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
        mounts = {m["mountPath"]: volumes[m["name"]] for m in c["volumeMounts"]}
        assert mounts[settings["worker_tmp_dir"]]["emptyDir"]["medium"] == "Memory"


def test_the_ai_pool_runs_threads_that_answer_healthz_beside_a_search(monkeypatch):
    (_, ai), = [(d, c) for d, c in gunicorn_containers() if env(c)["CARDAVIA_POOL"] == "ai"]
    settings = gunicorn_settings(env(ai), monkeypatch)
    assert settings["worker_class"] == "gthread"
    assert settings["threads"] > int(env(ai)["CARDAVIA_AI_CONCURRENCY"])
    assert ai["readinessProbe"]["httpGet"]["path"] == "/healthz"


def test_the_ai_pool_counts_search_time_per_client_that_its_nginx_names(monkeypatch):
    """Issue 40.1: the AI pods start with a budget of search time per client, and believe
    the X-Real-IP of the peers CARDAVIA_REAL_IP_FROM lists (the rules pods' nginx, the only
    pods the NetworkPolicy lets in: tests above), so that the client is not the sidecar."""
    (_, ai), = [(d, c) for d, c in gunicorn_containers() if env(c)["CARDAVIA_POOL"] == "ai"]
    for key, value in env(ai).items():
        monkeypatch.setenv(key, value)
    budget = create_app().extensions["cardavia.ai_budget"]
    assert budget.buckets is not None and budget.proxies


def test_the_sidecar_routes_to_its_gunicorn_and_to_the_ai_service():
    (rules,) = [d for d in of_kind("Deployment") if d["metadata"]["name"] == "cardavia"]
    containers = rules["spec"]["template"]["spec"]["containers"]
    (nginx,) = [c for c in containers if "nginx" in c.get("command", [])]
    (gunicorn,) = [c for c in containers if env(c).get("CARDAVIA_POOL") == "rules"]
    command = nginx["command"]
    assert command[command.index("--rules") + 1] == f"127.0.0.1:{env(gunicorn)['PORT']}"
    (ai_service,) = [s for s in of_kind("Service") if s["metadata"]["name"] == "cardavia-ai"]
    assert command[command.index("--ai") + 1] == \
        f"cardavia-ai:{ai_service['spec']['ports'][0]['port']}"
    (service,) = [s for s in of_kind("Service") if s["metadata"]["name"] == "cardavia"]
    assert service["spec"]["ports"][0]["targetPort"] in [p["name"] for p in nginx["ports"]]


def prestop_seconds(container: dict) -> float:
    hook = container.get("lifecycle", {}).get("preStop", {})
    if "sleep" in hook:
        return hook["sleep"]["seconds"]
    return sum(float(s) for s in re.findall(r"sleep (\d+)", " ".join(
        hook.get("exec", {}).get("command", []))))


def test_rollouts_drain_before_they_stop(monkeypatch):
    """16.7: every container waits before it is stopped (endpoints leave the Services
    first), gunicorn outlives its sidecar's drain, and the grace period covers it all."""
    for deployment in of_kind("Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
        for c in pod["containers"]:
            assert prestop_seconds(c) >= 5, c["name"]
        (c,) = [c for c in pod["containers"] if "CARDAVIA_POOL" in env(c)]
        graceful = gunicorn_settings(env(c), monkeypatch)["graceful_timeout"]
        assert pod["terminationGracePeriodSeconds"] >= prestop_seconds(c) + graceful
        sidecars = [s for s in pod["containers"] if s["name"] != c["name"]]
        assert all(prestop_seconds(c) > prestop_seconds(s) for s in sidecars)


# -- as a production reviewer reads them (issue 40.8) ---------------------------------------


def pod_of(name: str) -> dict:
    (deployment,) = [d for d in of_kind("Deployment") if d["metadata"]["name"] == name]
    return deployment["spec"]["template"]


def selects(selector: dict, labels: dict) -> bool:
    return selector.get("matchLabels", {}).items() <= labels.items()


def test_only_the_rules_pods_reach_the_ai_pool():
    """A NetworkPolicy per pool: the AI pods take traffic from the rules pods' nginx only
    (which has read each request whole and holds the per-client limits) and call nothing;
    the rules pods take traffic on nginx's port only and call the AI pods and DNS."""
    policies = of_kind("NetworkPolicy")
    ai, rules = pod_of("cardavia-ai"), pod_of("cardavia")
    (ai_policy,) = [p for p in policies if selects(p["spec"]["podSelector"],
                                                   ai["metadata"]["labels"])]
    assert set(ai_policy["spec"]["policyTypes"]) == {"Ingress", "Egress"}
    assert ai_policy["spec"]["egress"] == []
    (rule,) = ai_policy["spec"]["ingress"]
    assert [selects(f["podSelector"], rules["metadata"]["labels"]) and set(f) == {"podSelector"}
            for f in rule["from"]] == [True]
    (ai_port,) = ai["spec"]["containers"][0]["ports"]
    assert [p["port"] for p in rule["ports"]] == [ai_port["name"]]
    (rules_policy,) = [p for p in policies if selects(p["spec"]["podSelector"],
                                                      rules["metadata"]["labels"])]
    (nginx,) = [c for c in rules["spec"]["containers"] if "nginx" in c.get("command", [])]
    (ingress,) = rules_policy["spec"]["ingress"]
    assert [p["port"] for p in ingress["ports"]] == [nginx["ports"][0]["name"]]
    egress_ports = {p["port"] for e in rules_policy["spec"]["egress"] for p in e["ports"]}
    assert egress_ports == {ai_port["containerPort"], 53}


def gunicorn_pod_containers() -> list[tuple[str, dict]]:
    return [(d["metadata"]["name"], c) for d, c in gunicorn_containers()]


def test_no_probe_but_the_startup_one_waits_for_a_sync_worker():
    """Issue 40.3: a sync worker serves one request at a time, so a probe sent to one
    waits behind the queue and a busy pod fails it. The rules pool's gunicorn is started
    once /healthz answers (startupProbe), then alive and ready while its master holds the
    socket; the AI pool's free threads may answer /healthz for readiness, but liveness is
    the socket too; nginx's own /livez answers for the sidecar."""
    for name, c in gunicorn_pod_containers():
        assert c["command"][:3] == ["gunicorn", "--config", "gunicorn.conf.py"], name
        assert c["startupProbe"]["httpGet"]["path"] == "/healthz", name
        assert c["startupProbe"]["failureThreshold"] * c["startupProbe"]["periodSeconds"] >= 30
        assert "tcpSocket" in c["livenessProbe"], name
        if env(c)["CARDAVIA_POOL"] == "rules":
            assert "tcpSocket" in c["readinessProbe"], name
    (nginx,) = [c for c in pod_of("cardavia")["spec"]["containers"]
                if "nginx" in c.get("command", [])]
    for probe in ("readinessProbe", "livenessProbe"):
        assert nginx[probe]["httpGet"]["path"] == "/livez"
    assert "location = /livez" in (DEPLOY / "nginx" / "nginx.conf").read_text()


def test_replicas_spread_over_zones_and_nodes():
    for name in ("cardavia", "cardavia-ai"):
        pod = pod_of(name)
        spread = pod["spec"]["topologySpreadConstraints"]
        assert {s["topologyKey"] for s in spread} == {"topology.kubernetes.io/zone",
                                                       "kubernetes.io/hostname"}
        assert all(selects(s["labelSelector"], pod["metadata"]["labels"]) and s["maxSkew"] == 1
                   for s in spread)


def test_both_pools_read_the_state_key_from_one_secret():
    """A signing key in a manifest is a key in git: both pools take it from the same
    Secret (created apart: README), required, the old keys optional."""
    keys = {}
    for name, c in gunicorn_pod_containers():
        refs = secret_env(c)
        assert refs["CARDAVIA_STATE_KEY"].get("optional", False) is False, name
        assert refs["CARDAVIA_STATE_OLD_KEYS"]["optional"] is True, name
        assert "CARDAVIA_STATE_KEY" not in env(c)
        keys[name] = (refs["CARDAVIA_STATE_KEY"]["name"], refs["CARDAVIA_STATE_OLD_KEYS"]["name"])
    assert len(set(keys.values())) == 1 and len(keys) == 2, keys
    assert not of_kind("Secret")


def test_autoscalers_scale_up_at_once_and_down_slowly():
    for hpa in of_kind("HorizontalPodAutoscaler"):
        behavior = hpa["spec"]["behavior"]
        assert behavior["scaleDown"]["stabilizationWindowSeconds"] >= 300
        assert behavior["scaleUp"]["stabilizationWindowSeconds"] == 0
        assert all(p["value"] <= 50 for p in behavior["scaleDown"]["policies"]
                   if p["type"] == "Percent")


def test_the_edge_knows_the_balancers_in_front():
    """Per-client limits see clients behind a load balancer: the sidecar trusts the
    balancers' X-Forwarded-For (CARDAVIA_TRUSTED_PROXIES, a valid list)."""
    (nginx,) = [c for c in pod_of("cardavia")["spec"]["containers"]
                if "nginx" in c.get("command", [])]
    blocks = env(nginx)["CARDAVIA_TRUSTED_PROXIES"].split(",")
    assert blocks and all(ipaddress.ip_network(b.strip(), strict=False) for b in blocks)
