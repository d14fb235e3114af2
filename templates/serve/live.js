// Live reload: on each change event, fetch this page again and replace only the parts whose
// data-key changed (a tile whose face, name or problems changed), keeping scroll and filters.
"use strict";
(function () {
  const status = document.getElementById("status");
  function show(state, text) { status.dataset.state = state; status.textContent = text; }

  function patch(current, fresh) {
    if (!fresh) { current.remove(); return; }
    if (current.dataset.key !== undefined && current.dataset.key === fresh.dataset.key) return;
    if (!current.hasAttribute("data-list")) { current.replaceWith(document.importNode(fresh, true)); return; }
    const old = new Map(Array.from(current.children, (child) => [child.id, child]));
    let previous = null;
    for (const child of Array.from(fresh.children)) {
      let node = old.get(child.id);
      old.delete(child.id);
      if (!node || node.dataset.key !== child.dataset.key) {
        const made = document.importNode(child, true);
        if (node) node.replaceWith(made);
        node = made;
      }
      const wanted = previous ? previous.nextSibling : current.firstChild;
      if (wanted !== node) current.insertBefore(node, wanted);
      previous = node;
    }
    old.forEach((node) => node.remove());
    if (fresh.dataset.key !== undefined) current.dataset.key = fresh.dataset.key;
  }

  let loading = null, again = false;
  async function update() {
    if (loading) { again = true; return; }
    loading = (async () => {
      do {
        again = false;
        if (document.body.dataset.loading) { location.reload(); return; }  // the data is checked: the whole page
        const response = await fetch(location.href, { cache: "no-store" });
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        document.querySelectorAll("[data-live]").forEach((part) => patch(part, fresh.getElementById(part.id)));
        document.body.dataset.version = fresh.body.dataset.version;
      } while (again);
    })();
    try { await loading; show("live", "live"); } catch (error) { show("down", "update failed: " + error); }
    finally { loading = null; }
  }

  const source = new EventSource("/events");
  source.addEventListener("hello", (event) => {
    show("live", "live");
    if (JSON.parse(event.data).version !== document.body.dataset.version) update();
  });
  source.onmessage = () => update();
  source.onerror = () => show("down", "server not reachable; retrying…");
})();
