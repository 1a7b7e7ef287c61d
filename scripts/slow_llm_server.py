#!/usr/bin/env python3
"""A scripted, slow OpenAI-compatible model for screenshots of the workbench's live reply (issue 20).

POST /v1/chat/completions streams, for the task named in the prompt ("# Task: NAME"), some reasoning
(reasoning_content) and then an answer holding the task's next shipped CPU kernel from KERNELS/<task>/cpu/*.cpp,
in small pieces DELAY_MS apart, after FIRST_MS of silence, and ends with the usage chunk and [DONE]. Prints the
port it listens on, then serves until killed.

  slow_llm_server.py --kernels resources/kernels [--port 0] [--delay-ms 60] [--first-ms 2500]
"""
import argparse
import http.server
import json
import os
import re
import sys
import threading
import time

REASONING = ("The incumbent is the baseline. The reference calls erff once per element; the loop has no "
             "dependence between elements, so it vectorises if the call is replaced by a polynomial or by a "
             "vector-friendly form. Accuracy matters: the golden is fp64, so keep the relative error near 1e-6. "
             "Try the shipped idea first and measure.")


class State:
    def __init__(self, kernels):
        self.kernels = kernels
        self.lock = threading.Lock()
        self.asked = {}  # task -> requests so far

    def next_kernel(self, task):
        folder = os.path.join(self.kernels, task, "cpu")
        files = sorted(f for f in os.listdir(folder) if f.endswith(".cpp")) if os.path.isdir(folder) else []
        with self.lock:
            n = self.asked.get(task, 0)
            self.asked[task] = n + 1
        if not files:
            return None, None
        name = files[n % len(files)]
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            return name, f.read()


def pieces(text, size):
    return [text[i:i + size] for i in range(0, len(text), size)]


def make_handler(state, delay, first):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # quiet
            pass

        def chunk(self, data):
            b = data.encode("utf-8")
            self.wfile.write(b"%x\r\n" % len(b) + b + b"\r\n")
            self.wfile.flush()

        def event(self, delta, finish=None):
            j = {"id": "c1", "object": "chat.completion.chunk", "model": "slow-model",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            self.chunk("data: " + json.dumps(j) + "\n\n")

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8", "replace")
            req = json.loads(body)
            prompt = req["messages"][-1]["content"]
            m = re.search(r"^# Task: (\S+)", prompt, re.M)
            task = m.group(1) if m else "unknown"
            name, source = state.next_kernel(task)
            if source is None:
                answer = "I have no kernel to offer for %s this time." % task
            else:
                answer = ("I'll try the idea of %s: it keeps the semantics of the reference and gives the "
                          "compiler a loop it can vectorise.\n\n```cpp\n%s```\n" % (name, source))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            time.sleep(first)
            self.event({"role": "assistant", "content": ""})
            for p in pieces(REASONING, 12):
                self.event({"reasoning_content": p})
                time.sleep(delay)
            for p in pieces(answer, 24):
                self.event({"content": p})
                time.sleep(delay)
            self.event({}, "stop")
            usage = {"prompt_tokens": len(prompt) // 4 + 180, "completion_tokens": (len(answer) + len(REASONING)) // 4}
            usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
            self.chunk("data: " + json.dumps({"id": "c1", "choices": [], "usage": usage}) + "\n\n")
            self.chunk("data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    return Handler


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--delay-ms", type=int, default=60)
    ap.add_argument("--first-ms", type=int, default=2500)
    a = ap.parse_args()
    state = State(a.kernels)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", a.port),
                                          make_handler(state, a.delay_ms / 1000.0, a.first_ms / 1000.0))
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
