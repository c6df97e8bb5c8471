// dialogym's pages' shared helpers (an ES module the chat, AirDialogue and env pages import, served
// at /dom.js by every `dialogym serve` server): no framework, no CDN; every string goes through
// textContent (never innerHTML), so nothing a model or a person writes is interpreted as HTML.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** An element: `class`, `data-*`, `aria-*` and `role` as attributes, other keys as properties; children as nodes or text. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role') e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/** A JSON API call; a refusal or a network failure rejects with the server's one-line error and the HTTP status (0: no answer). */
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw Object.assign(new Error('network error: the server did not answer'), { status: 0 });
  }
  const data = res.status === 204 ? null : await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw Object.assign(new Error(data && typeof data.error === 'string' ? data.error : `HTTP ${res.status}`), { status: res.status });
  return data;
}
