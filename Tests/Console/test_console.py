"""The web console driven in headless Chromium, in order, in one browser session: refusals, the playground (a skill
card and the answer, HTML as text, a failing skill, a run failing mid-way), Setup (create and revoke a token), Traffic (live, filter, and
reconnecting after a gateway restart), Usage (the cost), the narrow and dark layouts, and no console errors and no
request outside the gateway's origin."""
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait


def wait(browser, seconds=15):
    # Pages re-render lists as data arrives: an element found a moment ago may be replaced; look again.
    return WebDriverWait(browser, seconds, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))


def text_of(browser, css):
    return browser.find_element(By.CSS_SELECTOR, css).text


def log_in(browser, gateway, token):
    browser.get(gateway.base + "/console")
    browser.execute_script("sessionStorage.clear()")
    browser.get(gateway.base + "/console#playground")
    field = wait(browser).until(EC.visibility_of_element_located((By.ID, "login-token")))
    field.send_keys(token, Keys.ENTER)


def ask(browser, question):
    box = wait(browser).until(EC.element_to_be_clickable((By.ID, "pg-input")))
    box.send_keys(question)
    browser.find_element(By.ID, "pg-send").click()
    turns = browser.find_elements(By.CSS_SELECTOR, ".turn")
    turn = turns[-1]
    wait(browser, 20).until(lambda _: turn.get_attribute("aria-busy") == "false")
    return turn


def test_a_wrong_or_ordinary_token_is_refused_and_nothing_is_shown(browser, gateway):
    log_in(browser, gateway, "sg-not-a-real-token")
    wait(browser).until(lambda b: "Refused" in text_of(b, "#login-error"))
    assert "invalid or revoked" in text_of(browser, "#login-error")
    log_in(browser, gateway, gateway.ordinary_token)
    wait(browser).until(lambda b: "not an admin token" in text_of(b, "#login-error"))
    assert not browser.find_element(By.ID, "nav").is_displayed()
    assert browser.find_element(By.ID, "page").text == ""
    assert browser.execute_script("return sessionStorage.length") == 0
    status, body = gateway.request("GET", "/admin/api/tokens", gateway.ordinary_token)
    assert status == 403 and "not an admin token" in body["error"]["message"]


def test_the_playground_shows_the_skill_card_and_the_answer(browser, gateway, shot):
    log_in(browser, gateway, gateway.admin_token)
    wait(browser).until(EC.visibility_of_element_located((By.ID, "pg-form")))
    wait(browser).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#pg-scenario option")) >= 2)
    turn = ask(browser, "What is 17*23?")
    card = turn.find_element(By.CSS_SELECTOR, '.card.skill[data-skill="calculator"]')
    assert "ok" in card.find_element(By.CSS_SELECTOR, ".badge").text
    assert '"expression": "17*23"' in card.find_element(By.CSS_SELECTOR, "pre").text
    assert "391" in card.find_element(By.CSS_SELECTOR, ".summary").text
    assert "391" in turn.find_element(By.CSS_SELECTOR, ".answer").text
    assert "Call 1 → demo/demo-light" in turn.text and "tier" in turn.text
    assert "visible" in turn.text, "the skills shown to the model"
    usage = turn.find_element(By.CSS_SELECTOR, ".usage").text
    assert "tokens" in usage and "$0.0" in usage and "2 model calls" in usage
    shot("playground")


def test_html_in_tool_results_and_model_output_is_text(browser, gateway, shot):
    turn = ask(browser, "What's the weather in Paris?")
    card = turn.find_element(By.CSS_SELECTOR, '.card.skill[data-skill="get_weather"]')
    assert "ok" in card.find_element(By.CSS_SELECTOR, ".badge").text
    summary = card.find_element(By.CSS_SELECTOR, ".summary").text
    assert "<b id=" in summary and "sunny</b>" in summary and "<img src=" in summary, summary
    assert "<img" in turn.find_element(By.CSS_SELECTOR, ".answer").text, "the model's answer quotes the markup as text"
    assert browser.find_elements(By.ID, "injected") == []
    assert browser.find_elements(By.CSS_SELECTOR, "#pg-transcript img, #pg-transcript b") == []
    time.sleep(0.3)
    assert browser.execute_script("return window.__injected === undefined")


def test_a_skill_failing_mid_run_shows_its_error_on_the_card_and_the_page_stays_usable(browser, gateway, shot):
    turn = ask(browser, "What's the weather in Failtown?")
    card = turn.find_element(By.CSS_SELECTOR, '.card.skill[data-skill="get_weather"]')
    assert "failed" in card.get_attribute("class")
    assert "failed" in card.find_element(By.CSS_SELECTOR, ".badge").text
    assert "500" in card.find_element(By.CSS_SELECTOR, ".summary").text
    shot("playground-failed-skill")
    turn = ask(browser, "What is 2+3?")
    assert "5" in turn.find_element(By.CSS_SELECTOR, ".answer").text


def test_a_run_failing_mid_way_shows_the_error_and_the_page_stays_usable(browser, gateway, shot):
    # The `flaky` provider calls get_capital, then answers the tool's result with a 500: the run fails after its card.
    Select(browser.find_element(By.ID, "pg-scenario")).select_by_value("capitals")
    Select(browser.find_element(By.ID, "pg-model")).select_by_value("flaky")
    turn = ask(browser, "What is the capital of France?")
    card = turn.find_element(By.CSS_SELECTOR, '.card.skill[data-skill="get_capital"]')
    assert "ok" in card.find_element(By.CSS_SELECTOR, ".badge").text
    alert = turn.find_element(By.CSS_SELECTOR, '[role="alert"]')
    assert "failed" in alert.text.lower() and "server had an error" in alert.text, alert.text
    shot("playground-failed-run")
    browser.find_element(By.ID, "pg-clear").click()
    Select(browser.find_element(By.ID, "pg-scenario")).select_by_value("assistant")
    Select(browser.find_element(By.ID, "pg-model")).select_by_value("auto")
    turn = ask(browser, "What is 4+5?")
    assert "9" in turn.find_element(By.CSS_SELECTOR, ".answer").text


def test_stop_cancels_a_run_under_way(browser, gateway):
    box = wait(browser).until(EC.element_to_be_clickable((By.ID, "pg-input")))
    box.send_keys("What's the weather in Slowtown?")
    browser.find_element(By.ID, "pg-send").click()
    turn = browser.find_elements(By.CSS_SELECTOR, ".turn")[-1]
    wait(browser).until(lambda _: "running" in turn.find_element(By.CSS_SELECTOR, '.card.skill[data-skill="get_weather"] .badge').text)
    started = time.time()
    browser.find_element(By.ID, "pg-stop").click()
    wait(browser, 3).until(lambda _: turn.get_attribute("aria-busy") == "false")
    assert time.time() - started < 2, "the page is usable again at once"
    assert "Stopped." in turn.text and browser.find_element(By.ID, "pg-send").is_enabled()
    # The gateway saw the client leave: the run is recorded as 499 client_gone once its skill call returned.
    deadline = time.time() + 15
    while time.time() < deadline:
        _, recent = gateway.request("GET", "/admin/api/requests?limit=1", gateway.admin_token)
        if recent["data"] and recent["data"][0]["outcome"] == "client_gone":
            break
        time.sleep(0.25)
    assert recent["data"][0]["outcome"] == "client_gone" and recent["data"][0]["status"] == 499, recent["data"][:1]


def test_setup_creates_a_token_shown_once_and_revokes_it(browser, gateway, shot):
    browser.get(gateway.base + "/console#setup")
    wait(browser).until(EC.visibility_of_element_located((By.ID, "st-name"))).send_keys("ci-bot")
    browser.find_element(By.ID, "st-rpm").send_keys("30")
    browser.find_element(By.CSS_SELECTOR, "#st-create button[type=submit]").click()
    secret = wait(browser).until(EC.visibility_of_element_located((By.ID, "st-new-token"))).text.strip()
    assert secret
    wait(browser).until(lambda b: b.find_elements(By.CSS_SELECTOR, '[data-revoke="ci-bot"]'))
    assert "requests_per_minute=30" in text_of(browser, "#st-token-table")
    assert gateway.request("GET", "/v1/models", secret)[0] == 200
    wait(browser).until(lambda b: "Providers" in text_of(b, "#st-catalog"))
    catalog = text_of(browser, "#st-catalog")
    assert "not set (OPENAI_API_KEY)" in catalog and "none needed" in catalog and "get_weather" in catalog
    ranking = text_of(browser, "#st-ranking")
    assert "BM25 + built-in word vectors" in ranking and "Cuts since start" in ranking, ranking
    assert "sk-" not in browser.page_source
    shot("setup")
    revoke = '[data-revoke="ci-bot"]'
    browser.find_element(By.CSS_SELECTOR, revoke).click()
    assert text_of(browser, revoke) == "Confirm revoke"
    assert gateway.request("GET", "/v1/models", secret)[0] == 200, "one click only arms the button"
    browser.find_element(By.CSS_SELECTOR, revoke).click()
    wait(browser).until(lambda b: text_of(b, '[data-status="ci-bot"]') == "revoked")
    assert gateway.request("GET", "/v1/models", secret)[0] == 401


def test_traffic_shows_requests_live_and_filters_them(browser, gateway, shot):
    browser.get(gateway.base + "/console#traffic")
    wait(browser).until(lambda b: text_of(b, "#tr-state") == "Live")
    rows = text_of(browser, "#tr-rows")
    assert "console" in rows and "assistant" in rows and "demo/demo-light" in rows
    status, _ = gateway.request("POST", "/v1/chat/completions", gateway.ordinary_token,
                                {"model": "light", "messages": [{"role": "user", "content": "Hello from the traffic test"}]})
    assert status == 200
    wait(browser).until(lambda b: "app" in [c.text for c in b.find_elements(By.CSS_SELECTOR, "#tr-rows td:nth-child(2)")])
    browser.find_element(By.ID, "tr-filter").send_keys("app")
    wait(browser).until(lambda b: all(c.text == "app" for c in b.find_elements(By.CSS_SELECTOR, "#tr-rows td:nth-child(2)")))
    shot("traffic")


def test_usage_shows_the_cost(browser, gateway, shot):
    browser.get(gateway.base + "/console#usage")
    total = wait(browser).until(EC.visibility_of_element_located((By.ID, "us-total"))).text
    _, report = gateway.request("GET", "/admin/api/usage?by=day&days=30", gateway.admin_token)
    spent = sum(row["cost_usd"] for row in report["data"])
    assert spent > 0 and total == f"${spent:.4f}", (total, spent)
    page = text_of(browser, "#us-content")
    assert "By token" in page and "console" in page and "demo/demo-light" in page
    assert "budget_usd_per_day" in page, "the config's token_limits budget, with what is left"
    assert browser.find_elements(By.CSS_SELECTOR, "#us-content svg rect.bar"), "the day's bars"
    Select(browser.find_element(By.ID, "us-split")).select_by_value("token")
    wait(browser).until(lambda b: "app" in [li.text for li in b.find_elements(By.CSS_SELECTOR, ".legend li")])
    assert "console" in [li.text for li in browser.find_elements(By.CSS_SELECTOR, ".legend li")]
    assert browser.find_elements(By.CSS_SELECTOR, "#us-content svg rect.bar.series-1"), "a second token, a second colour"
    titles = [t.get_attribute("textContent") for t in browser.find_elements(By.CSS_SELECTOR, "#us-content svg rect.bar title")]
    assert any(" · app: $0.0" in t for t in titles), titles
    shot("usage")


def test_narrow_and_dark_layouts_are_readable(browser, gateway, shot):
    browser.set_window_size(360, 800)
    browser.get(gateway.base + "/console#playground")
    wait(browser).until(EC.visibility_of_element_located((By.ID, "pg-form")))
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360 + 1, f"the page scrolls sideways at 360 px ({width} px wide)"
    shot("playground-360px")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    browser.get(gateway.base + "/console#usage")
    wait(browser).until(EC.visibility_of_element_located((By.ID, "us-total")))
    background = browser.execute_script("return getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(20, 23, 27)"
    shot("usage-dark")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.set_window_size(1280, 900)


def test_keyboard_reaches_the_pages(browser, gateway):
    browser.get(gateway.base + "/console#playground")
    wait(browser).until(EC.visibility_of_element_located((By.ID, "pg-form")))
    browser.execute_script("document.querySelector('.skip').focus()")
    reached = [browser.switch_to.active_element.text]
    for _ in range(8):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        reached.append(browser.switch_to.active_element.text)
        if reached[-1] == "Usage":
            break
    assert reached == ["Skip to content", "Playground", "Traffic", "Usage"], reached
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser).until(EC.visibility_of_element_located((By.ID, "us-days")))
    for label in browser.find_elements(By.CSS_SELECTOR, "label[for]"):
        assert browser.find_elements(By.ID, label.get_attribute("for")), f"label for a missing control: {label.text}"


def test_no_console_errors_and_no_request_outside_the_gateway(browser, gateway):
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    # The refusals of the first test are answers the page asked for (401/403 on whoami), logged by Chromium as
    # failed resources; anything else is a fault of the console.
    unexpected = [e for e in errors if "/admin/api/whoami" not in e["message"]]
    assert unexpected == [], unexpected
    urls = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    outside = [u for u in urls if not u.startswith(gateway.base + "/")]
    assert urls and outside == [], outside


def test_traffic_reconnects_after_a_gateway_restart(browser, gateway, shot):
    browser.get(gateway.base + "/console#traffic")
    wait(browser).until(lambda b: text_of(b, "#tr-state") == "Live")
    app_rows = lambda b: [c.text for c in b.find_elements(By.CSS_SELECTOR, "#tr-rows td:nth-child(2)")].count("app")
    before = app_rows(browser)
    gateway.restart()
    status, _ = gateway.request("POST", "/v1/chat/completions", gateway.ordinary_token,
                                {"model": "light", "messages": [{"role": "user", "content": "After the restart"}]})
    assert status == 200
    wait(browser, 30).until(lambda b: text_of(b, "#tr-state") == "Live" and app_rows(b) == before + 1)
    shot("traffic-after-restart")
