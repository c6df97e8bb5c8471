"""An agent for `dialogym evaluate --agent-cmd "python3 examples/python/stdio_agent.py"`.

Protocol dialogym-agent/1 (docs/agent-protocol.md): one JSON request per stdin line,
one JSON reply {"action": ..., "turn": n} per stdout line (flushed; echoing the turn lets
dialogym catch a reply that is one turn late).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy import act  # noqa: E402

for line in sys.stdin:
    if not line.strip():
        continue
    req = json.loads(line)
    action = act(req["turn"], req["observation"], req["tools"])
    sys.stdout.write(json.dumps({"action": action, "turn": req["turn"]}) + "\n")
    sys.stdout.flush()
