"""The console's browser tests: a gateway on the offline demo model (priced, so requests cost something), a local
webhook skill that answers with HTML (and fails for one place), and one headless Chromium session for the suite.

Run by scripts/test.sh (which installs Debian's chromium and chromium-driver and Tests/Console/requirements.txt).
Screenshots go to Tests/Console/artifacts/ (not committed), or to $SKILLGATE_CONSOLE_ARTIFACTS.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("SKILLGATE_BIN", os.path.join(REPO, ".build", "debug", "skillgate"))
ARTIFACTS = os.environ.get("SKILLGATE_CONSOLE_ARTIFACTS", os.path.join(os.path.dirname(__file__), "artifacts"))

# What the weather webhook answers: markup that must show up as text, never as elements (the image would set a flag).
HTML_FORECAST = '<b id="injected">sunny</b> <img src="/console/x.png" onerror="window.__injected=1">'


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WeatherHook(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))) or b"{}")
        if "slowtown" in json.dumps(body).lower():
            time.sleep(4)  # long enough to press Stop while the skill runs
        if "failtown" in json.dumps(body).lower():
            self.send_response(500)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"error":"the weather station in Failtown is down"}')
            return
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"forecast": HTML_FORECAST}).encode())

    def log_message(self, *args):
        pass


class Gateway:
    """`skillgate serve` on a temporary config; `restart()` stops and starts it on the same port."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.hook = ThreadingHTTPServer(("127.0.0.1", 0), WeatherHook)
        threading.Thread(target=self.hook.serve_forever, daemon=True).start()
        providers = os.path.join(workdir, "providers")
        os.makedirs(providers)
        with open(os.path.join(REPO, "Providers", "demo.json")) as f:
            demo = f.read().replace('"input_per_mtok": 0.0', '"input_per_mtok": 100.0').replace('"output_per_mtok": 0.0', '"output_per_mtok": 100.0')
        with open(os.path.join(providers, "demo.json"), "w") as f:
            f.write(demo)
        shutil.copy(os.path.join(REPO, "Providers", "openai.json"), providers)  # a provider whose key is not set
        config = {
            "listen": f"127.0.0.1:{self.port}", "state_dir": "state", "providers_dir": "providers",
            "console": {"assets_dir": os.path.join(REPO, "Console")},
            "tiers": {"light": ["demo/demo-light"], "strong": ["demo/demo-strong"]}, "default_model": "light",
            "default_scenario": "assistant",
            "scenarios": {
                "assistant": {"description": "Built-in skills and a weather webhook", "skill_packs": ["tools"], "default_model": "light"},
                "chat": {"description": "No skills", "skill_packs": []},
            },
            "skill_packs": {"tools": {"skills": ["current_time", "calculator", "get_weather"]}},
            "server_skills": {
                "builtin": ["current_time", "calculator"],
                "webhooks": {"get_weather": {
                    "description": "Gets the weather forecast for a place", "url": f"http://127.0.0.1:{self.hook.server_address[1]}/weather",
                    "allow_private": True, "timeout_seconds": 8,
                    "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}},
            },
            "limits": {"shutdown_grace_seconds": 1},
            "token_limits": {"budget_usd_per_day": 5},
        }
        self.config = os.path.join(workdir, "skillgate.json")
        with open(self.config, "w") as f:
            json.dump(config, f)
        self.admin_token = self.cli("tokens", "create", "--name", "console", "--admin", "--chat")
        self.ordinary_token = self.cli("tokens", "create", "--name", "app")
        self.process = None
        self.start()

    def cli(self, *args):
        out = subprocess.run([BINARY, *args, "--config", self.config], capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def start(self):
        self.log = open(os.path.join(self.workdir, "gateway.log"), "a")
        self.process = subprocess.Popen([BINARY, "serve", "--config", self.config], stdout=self.log, stderr=self.log)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the gateway did not start; see {self.workdir}/gateway.log")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=15)
        self.log.close()

    def restart(self):
        self.stop()
        self.start()

    def request(self, method, path, token, body=None):
        """(status, parsed JSON or text) of a request to the gateway."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"authorization": f"Bearer {token}", "content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                raw = r.read().decode()
                status = r.status
        except urllib.error.HTTPError as e:
            raw = e.read().decode()
            status = e.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw


@pytest.fixture(scope="session")
def gateway():
    if not os.path.exists(BINARY):
        pytest.fail(f"{BINARY} is missing; run `swift build --product skillgate` first")
    workdir = tempfile.mkdtemp(prefix="skillgate-console-")
    gw = Gateway(workdir)
    yield gw
    gw.stop()
    gw.hook.shutdown()
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900",
                "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-default-apps", "--disable-features=Translate,OptimizationHints,MediaRouter"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    os.makedirs(ARTIFACTS, exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def shot(browser):
    def save(name):
        browser.save_screenshot(os.path.join(ARTIFACTS, f"{name}.png"))
    return save
