"""A tiny bAbI task-1 policy shared by the examples (standard library only).

It reads the api_call tool's parameters (their enums are the values the KB knows), finds the
values the user mentioned in the dialog so far, asks for the missing ones, then calls the tool.
"""

QUESTIONS = {
    "cuisine": "any preference on a type of cuisine",
    "location": "where should it be",
    "number": "how many people would be in your party",
    "price": "which price range are looking for",
    "atmosphere": "are you looking for a specific atmosphere",
    "restrictions": "do you have any dietary restrictions",
}


def act(turn, observation, tools):
    """The next action: text, or a tool call {"tool": ..., "arguments": {...}}."""
    if turn == 0:
        return "hello what can i help you with today"
    if turn == 1:
        return "i'm on it"
    api = next(t for t in tools if t["function"]["name"] == "api_call")
    params = api["function"]["parameters"]
    known = {}
    for t in observation["history"]:
        if t["speaker"] != "user":
            continue
        for word in t["text"].replace(",", " ").split():
            for slot, spec in params["properties"].items():
                if word in spec.get("enum", []):
                    known[slot] = word
    for slot in params["required"]:
        if slot not in known:
            return QUESTIONS[slot]
    return {"tool": "api_call", "arguments": known}
