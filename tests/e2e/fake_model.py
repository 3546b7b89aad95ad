# SPDX-License-Identifier: MIT
"""A scripted stand-in for a model, on loopback, for the end-to-end tests of
tests/e2e: it speaks the three wire formats the agent CLIs use (the
Anthropic Messages API, the OpenAI Responses API, the Gemini API's
generateContent), answers each request with the next tool call of its
script, and records every request, so that a test asserts on exactly what
a real model would receive. Standard library only.

  fake_model.py serve SCRIPT LOG PORT-FILE   serve until SIGTERM
  fake_model.py results LOG PREFIX           the tool results the model got,
                                             one JSON object a line, and
                                             each one's text in PREFIX.STEP

The script (JSON): {"prefer": "mcp"|"builtin", "steps": [STEP...]} where a
step is {"tool": "bash", "command": C, "background": bool} or
{"tool": "job_output", "job": "{{job}}"}. "{{job}}" is the job id read from
the tool results so far. A step is answered to the request whose
conversation already holds that many tool results, so retries and side
requests (titles, checks) never move the script on; once every step has
its result, the model answers with text and the CLI ends its turn.
A request that offers no tools (a title, a summary) gets a short text.
Not for: judging what the CLI did (the test scripts do that)."""
import json
import re
import time
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FINAL = "All steps done."
JOB_RE = re.compile(r"job_kill tool: job ([^\]\s\\\"]+)|\"job(?:Id)?\"\s*:\s*\"([^\"]+)\"")

# The job's output file, as the result names it; a model that reads a job's
# output waits for it to end first, as one that knows its command would.
OUTPUT_RE = re.compile(r"\[output: (\S+\.out) ")


def wait_for_job(path, seconds=60):
    """Until the job's completion line is in its output file, or seconds."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            with open(path, errors="replace") as f:
                if "[sluice: job " in f.read():
                    return
        except OSError:
            pass
        time.sleep(0.1)

# A tool Claude Code offers while MCP servers are still connecting: the
# model calls it when sluice's tools are not there yet. Its results are
# not steps of the script.
WAIT = "WaitForMcpServers"

# The CLI's own shell tool, per wire format, and how a command goes into it.
BUILTIN = ["Bash", "run_shell_command", "exec_command", "shell_command", "shell"]


def tool_names(api, body):
    """The names of the function tools a request offers."""
    names = []
    for tool in body.get("tools") or []:
        if api == "gemini":
            for decl in tool.get("functionDeclarations") or []:
                names.append(decl.get("name"))
        elif tool.get("type") == "namespace":
            # Codex groups an MCP server's tools in a namespace; a call
            # names the tool and its namespace apart (split_name).
            for sub in tool.get("tools") or []:
                names.append(tool.get("name", "") + NS + sub.get("name", ""))
        else:
            names.append(tool.get("name") or (tool.get("function") or {}).get("name"))
    return [n for n in names if n]


NS = "\x1f"


def split_name(name):
    """A tool's namespace (or None) and its name within it."""
    if NS in name:
        return tuple(name.split(NS, 1))
    return None, name


def text_of(content):
    """A tool result's content, whatever shape, as one string."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text_of(c) for c in content)
    if isinstance(content, dict):
        for key in ("text", "output", "content"):
            if key in content:
                return text_of(content[key])
        return json.dumps(content)
    return json.dumps(content)


def tool_results(api, body):
    """The tool results in a request's conversation, in order:
    [{"name": ..., "text": ..., "raw": ...}]."""
    found = []
    if api == "anthropic":
        names = {}
        for msg in body.get("messages") or []:
            if not isinstance(msg.get("content"), list):
                continue
            for block in msg["content"]:
                if block.get("type") == "tool_use":
                    names[block.get("id")] = block.get("name")
                elif block.get("type") == "tool_result":
                    found.append({"name": names.get(block.get("tool_use_id")),
                                  "is_error": block.get("is_error", False),
                                  "text": text_of(block.get("content", "")), "raw": block})
    elif api == "responses":
        names = {}
        for item in body.get("input") or []:
            if item.get("type") in ("function_call", "custom_tool_call"):
                names[item.get("call_id")] = ((item.get("namespace") or "") + " " + item.get("name", "")).strip()
            elif item.get("type") in ("function_call_output", "custom_tool_call_output"):
                found.append({"name": names.get(item.get("call_id")),
                              "text": text_of(item.get("output", "")), "raw": item})
    else:
        for msg in body.get("contents") or []:
            for part in msg.get("parts") or []:
                if "functionResponse" in part:
                    fr = part["functionResponse"]
                    found.append({"name": fr.get("name"), "text": json.dumps(fr.get("response")),
                                  "raw": part})
    return [r for r in found if r["name"] != WAIT]


def fill(schema):
    """A value of a JSON schema's shape (Gemini CLI's side requests, such as
    its model router, want an answer they can parse)."""
    kind = str(schema.get("type", "object")).lower()
    if kind == "object":
        return {k: fill(v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    if schema.get("enum"):
        return schema["enum"][0]
    return "x"


def resolve(step, offered, prefer, results):
    """The concrete (name, arguments) of a step for a CLI offering those
    tools; None when it offers none that fits."""
    want = step["tool"]
    mcp = [n for n in offered if "sluice" in n and n.endswith(want)]
    if want != "bash" or prefer == "mcp":
        if not mcp:
            return None
        name = mcp[0]
        if want == "bash":
            args = {"command": step["command"], "description": "scripted step"}
            if step.get("background"):
                args["mode"] = "background"
        else:
            job = None
            for r in reversed(results):
                m = JOB_RE.search(r["text"])
                if m:
                    job = m.group(1) or m.group(2)
                    out = OUTPUT_RE.search(r["text"])
                    if out:
                        wait_for_job(out.group(1))
                    break
            args = {"job": job or "no-job-seen"}
        return name, args
    for name in BUILTIN:
        if name in offered:
            break
    else:
        return None
    cmd = step["command"]
    if name == "exec_command":
        args = {"cmd": cmd}
    elif name == "shell":
        args = {"command": ["bash", "-lc", cmd]}
    else:
        args = {"command": cmd, "description": "scripted step"}
    if step.get("background"):
        args["run_in_background" if name == "Bash" else "is_background"] = True
    return name, args


class Model:
    def __init__(self, script, log):
        self.script = script
        self.log = open(log, "a", buffering=1)
        self.lock = threading.Lock()
        self.calls = 0

    def decide(self, api, body):
        """What the model answers: ("text", T) or ("call", NAME, ARGS)."""
        offered = tool_names(api, body)
        if not offered:
            schema = (body.get("generationConfig") or {}).get("responseJsonSchema") or \
                (body.get("generationConfig") or {}).get("responseSchema")
            return ("text", json.dumps(fill(schema)) if schema else "ok"), None
        results = tool_results(api, body)
        steps = self.script["steps"]
        if len(results) >= len(steps):
            return ("text", FINAL), len(results)
        step = steps[len(results)]
        chosen = resolve(step, offered, self.script.get("prefer", "builtin"), results)
        if chosen is None and WAIT in offered:
            chosen = (WAIT, {})
        if chosen is None:
            return ("text", "no tool fits step %d; offered %s" % (len(results), offered)), len(results)
        return ("call",) + chosen, len(results)

    def record(self, entry):
        with self.lock:
            self.log.write(json.dumps(entry) + "\n")

    def next_id(self):
        with self.lock:
            self.calls += 1
            return self.calls


def sse(handler, events):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.end_headers()
    for name, data in events:
        chunk = ""
        if name:
            chunk += "event: %s\n" % name
        chunk += "data: %s\n\n" % json.dumps(data)
        handler.wfile.write(chunk.encode())
    handler.wfile.flush()
    handler.close_connection = True


def send_json(handler, obj, status=200):
    data = json.dumps(obj).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def anthropic(handler, model, body, answer, n):
    usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0}
    if answer[0] == "call":
        block = {"type": "tool_use", "id": "toolu_%04d" % n, "name": answer[1], "input": answer[2]}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": answer[1]}
        stop = "end_turn"
    msg = {"id": "msg_%04d" % n, "type": "message", "role": "assistant",
           "model": body.get("model", "fake"), "content": [block], "stop_reason": stop,
           "stop_sequence": None, "usage": usage}
    if not body.get("stream"):
        send_json(handler, msg)
        return
    start = dict(msg, content=[], stop_reason=None)
    if block["type"] == "tool_use":
        first = dict(block, input={})
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        first = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    sse(handler, [
        ("message_start", {"type": "message_start", "message": start}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": first}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def responses(handler, model, body, answer, n):
    if answer[0] == "call":
        namespace, name = split_name(answer[1])
        item = {"type": "function_call", "id": "fc_%04d" % n, "call_id": "call_%04d" % n,
                "name": name, "arguments": json.dumps(answer[2]), "status": "completed"}
        if namespace:
            item["namespace"] = namespace
    else:
        item = {"type": "message", "id": "msg_%04d" % n, "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": answer[1], "annotations": []}]}
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    resp = {"id": "resp_%04d" % n, "object": "response", "status": "completed",
            "model": body.get("model", "fake"), "output": [item], "usage": usage}
    if not body.get("stream"):
        send_json(handler, resp)
        return
    sse(handler, [
        ("response.created", {"type": "response.created",
                              "response": dict(resp, status="in_progress", output=[])}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                        "item": item}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                       "item": item}),
        ("response.completed", {"type": "response.completed", "response": resp}),
    ])


def gemini(handler, model, body, answer, n, stream):
    if answer[0] == "call":
        part = {"functionCall": {"name": answer[1], "args": answer[2], "id": "call_%04d" % n}}
    else:
        part = {"text": answer[1]}
    resp = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                            "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": "fake", "responseId": "r%04d" % n}
    if stream:
        sse(handler, [(None, resp)])
    else:
        send_json(handler, resp)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    model = None

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.model.record({"method": "GET", "path": self.path})
        send_json(self, {"models": [], "data": []})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        path = self.path.split("?")[0]
        model = self.model
        n = model.next_id()
        if path.endswith("/messages/count_tokens") or path.endswith(":countTokens"):
            model.record({"n": n, "path": self.path, "body": body, "answer": "count"})
            send_json(self, {"input_tokens": 10, "totalTokens": 10})
            return
        if path.endswith("/messages"):
            api = "anthropic"
        elif path.endswith("/responses"):
            api = "responses"
        elif ":streamGenerateContent" in path or ":generateContent" in path:
            api = "gemini"
        else:
            model.record({"n": n, "path": self.path, "body": body, "answer": "404"})
            send_json(self, {"error": {"message": "not here"}}, 404)
            return
        answer, step = model.decide(api, body)
        model.record({"n": n, "api": api, "path": self.path, "step": step, "answer": list(answer),
                      "results": [{k: r[k] for k in r if k != "raw"} for r in tool_results(api, body)],
                      "body": body})
        if api == "anthropic":
            anthropic(self, model, body, answer, n)
        elif api == "responses":
            responses(self, model, body, answer, n)
        else:
            gemini(self, model, body, answer, n, ":streamGenerateContent" in path)


def serve(script_path, log, port_file):
    with open(script_path) as f:
        script = json.load(f)
    Handler.model = Model(script, log)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *a: threading.Thread(target=server.shutdown).start())
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


def results(log, prefix):
    """The tool results of the longest conversation in the log: what the
    model was handed for each step, one JSON line each, and each step's
    text in the file PREFIX.N (read by the checks without another Python)."""
    best = []
    with open(log) as f:
        for line in f:
            entry = json.loads(line)
            if len(entry.get("results") or []) > len(best):
                best = entry["results"]
    for i, r in enumerate(best):
        print(json.dumps(dict(r, step=i)))
        with open("%s.%d" % (prefix, i), "w") as f:
            f.write(r["text"])


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:5])
    elif sys.argv[1] == "results":
        results(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: fake_model.py serve SCRIPT LOG PORT-FILE | results LOG PREFIX")
