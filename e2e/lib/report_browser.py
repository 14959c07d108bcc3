#!/usr/bin/env python3
"""Reads report site pages in headless Chromium as a person would: logged in through the form.

usage: report_browser.py --token-file FILE --out DIR URL [URL...]
  Starts `chromium --headless` (CHROMIUM: another binary), opens the site's login form
  (/reports/login), types the token from FILE into it and submits it with Enter, so that the site
  sets its login cookie and sends the browser on to the first URL; then opens the other URLs in the
  same browser. For the i-th URL (from 0) it writes DIR/page-i.html (the DOM after the page loaded,
  as `chromium --dump-dom` does) and DIR/page-i.png (a screenshot), and prints one JSON line:
    {"url", "finalUrl", "status", "csp" (the page's Content-Security-Policy header), "title",
     "console": [{"source", "level", "text"}]  (what Chromium logged for the page: a blocked script
     or frame shows up here as a Content Security Policy violation)}
  Exit 1 if Chromium fails or a page does not load in time; the checks are the caller's.
Talks to Chromium with the DevTools protocol over --remote-debugging-pipe (file descriptors 3 and
4): no port, no WebSocket, nothing beyond the Python standard library.
"""
import argparse
import base64
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

LOAD_TIMEOUT = 30  # seconds for a page (and its frames) to load
SETTLE_TIMEOUT = 10  # seconds for the network to go quiet after the load (the frames' scripts)


class Chromium:
    """One headless Chromium and one page (tab) of it, driven over the DevTools pipe."""

    def __init__(self, binary, window):
        self.profile = tempfile.mkdtemp(prefix="report-browser-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def pipes_as_3_and_4():  # in the child, before exec: Chromium reads 3, writes 4
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--no-default-browser-check", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile}", f"--window-size={window}"],
            preexec_fn=pipes_as_3_and_4, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.next_id = 0
        self.answers = {}
        self.events = queue.Queue()
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.stderr_tail = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network", "DOM"):
            self.call(f"{domain}.enable", session=True)
        self.call("Page.setLifecycleEventsEnabled", session=True, enabled=True)

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr_tail = (self.stderr_tail + [line.decode(errors="replace").rstrip()])[-20:]

    def _read(self):
        buffer = b""
        with os.fdopen(self.from_chrome, "rb", buffering=0) as pipe:
            while True:
                chunk = pipe.read(1 << 16)
                if not chunk:
                    break
                buffer += chunk
                while b"\0" in buffer:
                    raw, buffer = buffer.split(b"\0", 1)
                    message = json.loads(raw)
                    if "id" in message:
                        with self.lock:
                            self.answers[message["id"]] = message
                            self.lock.notify_all()
                    else:
                        self.events.put(message)
        with self.lock:
            self.answers[None] = "closed"
            self.lock.notify_all()

    def call(self, method, session=False, timeout=LOAD_TIMEOUT, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.next_id not in self.answers:
                if None in self.answers or time.monotonic() > deadline:
                    raise RuntimeError(f"Chromium did not answer {method}: {self.stderr_tail[-5:]}")
                self.lock.wait(1)
            answer = self.answers.pop(self.next_id)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def wait(self, wanted, timeout, seen):
        """Events until one satisfies wanted(event); every event is handed to seen(event)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if event.get("sessionId") != self.session:
                continue
            seen(event)
            if wanted(event):
                return event

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except RuntimeError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)


class Visit:
    """What Chromium showed of one page: the main document's answer and what it logged."""

    def __init__(self, url):
        self.url = url
        self.status = None
        self.csp = None
        self.final_url = None
        self.main_frame = None
        self.console = []

    def see(self, event):
        method, params = event["method"], event.get("params", {})
        if method == "Network.responseReceived" and params.get("type") == "Document" \
                and (self.main_frame is None or params.get("frameId") == self.main_frame):
            response = params["response"]
            headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
            self.status, self.final_url = response["status"], response["url"]
            self.csp = headers.get("content-security-policy")
        elif method == "Log.entryAdded":
            entry = params["entry"]
            self.console.append({k: entry.get(k) for k in ("source", "level", "text")})
        elif method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append({"source": "console-api", "level": params.get("type"), "text": text})
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            self.console.append({"source": "exception", "level": "error", "text": text})


def main_frame_loaded(event):
    return event["method"] == "Page.loadEventFired"


def open_page(chrome, visit, navigate):
    """navigate() starts the navigation; then the load, then a quiet network (or SETTLE_TIMEOUT)."""
    frame = chrome.call("Page.getFrameTree", session=True)["frameTree"]["frame"]["id"]
    visit.main_frame = frame
    navigate()
    if chrome.wait(main_frame_loaded, LOAD_TIMEOUT, visit.see) is None:
        raise RuntimeError(f"{visit.url} did not load within {LOAD_TIMEOUT} s")
    chrome.wait(lambda e: e["method"] == "Page.lifecycleEvent" and e["params"].get("name") == "networkIdle"
                and e["params"].get("frameId") == frame, SETTLE_TIMEOUT, visit.see)


def snapshot(chrome, visit, out, i):
    root = chrome.call("DOM.getDocument", session=True, depth=-1)["root"]
    dom = chrome.call("DOM.getOuterHTML", session=True, nodeId=root["nodeId"])["outerHTML"]
    with open(os.path.join(out, f"page-{i}.html"), "w", encoding="utf-8") as f:
        f.write(dom)
    # the flame graphs are drawn in sandboxed frames, which Chromium may paint from processes of
    # their own after the load: capture until two captures a second apart are the same
    shot = chrome.call("Page.captureScreenshot", session=True, format="png")["data"]
    for _ in range(SETTLE_TIMEOUT):
        time.sleep(1)
        again = chrome.call("Page.captureScreenshot", session=True, format="png")["data"]
        if again == shot:
            break
        shot = again
    with open(os.path.join(out, f"page-{i}.png"), "wb") as f:
        f.write(base64.b64decode(shot))
    title = chrome.call("Runtime.evaluate", session=True, expression="document.title",
                        returnByValue=True).get("result", {}).get("value")
    print(json.dumps({"url": visit.url, "finalUrl": visit.final_url, "status": visit.status,
                      "csp": visit.csp, "title": title, "console": visit.console}), flush=True)


def log_in(chrome, first, token):
    """The login form, the token typed into it, Enter: the site answers with the cookie and the page."""
    parts = urllib.parse.urlsplit(first)
    form = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/reports/login",
                                    urllib.parse.urlencode({"next": parts.path}), ""))
    login = Visit(form)
    open_page(chrome, login, lambda: chrome.call("Page.navigate", session=True, url=form))
    if login.status != 200:
        raise RuntimeError(f"the login form answered {login.status}")
    root = chrome.call("DOM.getDocument", session=True)["root"]["nodeId"]
    field = chrome.call("DOM.querySelector", session=True, nodeId=root, selector="input[name=token]")["nodeId"]
    if not field:
        raise RuntimeError("the login page has no token field")
    chrome.call("DOM.focus", session=True, nodeId=field)
    chrome.call("Input.insertText", session=True, text=token)

    def press_enter():
        for kind in ("keyDown", "keyUp"):
            chrome.call("Input.dispatchKeyEvent", session=True, type=kind, key="Enter", code="Enter",
                        windowsVirtualKeyCode=13, **({"text": "\r"} if kind == "keyDown" else {}))
    return press_enter


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--window", default="1280,3000")
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    with open(args.token_file, encoding="utf-8") as f:
        token = f.read().strip()
    os.makedirs(args.out, exist_ok=True)
    chrome = Chromium(os.environ.get("CHROMIUM", "chromium"), args.window)
    try:
        submit = log_in(chrome, args.urls[0], token)
        for i, url in enumerate(args.urls):
            visit = Visit(url)
            open_page(chrome, visit, submit if i == 0 else
                      lambda: chrome.call("Page.navigate", session=True, url=url))
            snapshot(chrome, visit, args.out, i)
    except RuntimeError as e:
        sys.exit(f"report_browser: {e}")
    finally:
        chrome.close()


if __name__ == "__main__":
    main()
