#!/usr/bin/env python3
"""A scripted LLM server on 127.0.0.1 for the screenshots of Settings > LLM profiles (scripts/screenshots-settings.sh).

POST <prefix>/v1/chat/completions answers by prefix: /ok streams a short OpenAI-compatible reply with usage after
a short delay (a real answer, as a connection test gets it); /refuse answers 401 with an OpenAI error body.
Prints the port on stdout once listening; serves until killed.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "qwen2.5-coder-32b-instruct-demo"


def chunk(delta, finish=None):
    return {"id": "c1", "object": "chat.completion.chunk", "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.startswith("/refuse/"):
            body = json.dumps({"error": {"message": "Incorrect API key provided: sk-demo***. You can find your API key "
                                                    "at https://platform.example/account/api-keys.",
                                         "type": "invalid_request_error", "code": "invalid_api_key"}}).encode()
            self.send_response(401)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        time.sleep(0.35)
        events = [chunk({"role": "assistant", "content": ""}), chunk({"content": "ok"}), chunk({}, "stop"),
                  {"id": "c1", "choices": [], "usage": {"prompt_tokens": 15, "completion_tokens": 2, "total_tokens": 17}}]
        body = "".join("data: " + json.dumps(e) + "\n\n" for e in events) + "data: [DONE]\n\n"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
