"""The other direction: the agent drives `dialogym env-server` over HTTP.

    dialogym env-server --port 8090 &
    python3 examples/python/env_client.py http://127.0.0.1:8090 restaurant-task1-v1 20

Plays the episodes with the policy of policy.py and prints a JSON summary.
"""
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from policy import act  # noqa: E402


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as res:
        return json.loads(res.read())


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8090"
    env_id = sys.argv[2] if len(sys.argv) > 2 else "restaurant-task1-v1"
    episodes = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    session = post(f"{base}/envs/{env_id}", {})
    sid, tools = session["session"], session["tools"]
    successes, turns = 0, 0
    for seed in range(episodes):
        obs = post(f"{base}/sessions/{sid}/reset", {"seed": seed})["observation"]
        for turn in range(200):
            r = post(f"{base}/sessions/{sid}/step", {"action": act(turn, obs, tools)})
            obs = r["observation"]
            if r["terminated"] or r["truncated"]:
                successes += 1 if r["reward"] > 0 else 0
                turns += turn + 1
                break
    print(json.dumps({"env": env_id, "episodes": episodes, "success": successes / episodes, "avgTurns": turns / episodes}))


main()
