// The theme's wide tables scroll inside their own box: that box can take the keyboard focus
// (so it can be scrolled without a mouse) and says what it holds.
function focusableScrollers() {
  for (const box of document.querySelectorAll(".md-typeset__scrollwrap")) {
    if (box.hasAttribute("tabindex")) continue;
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    const caption = box.querySelector("caption, th");
    box.setAttribute("aria-label", caption ? `Tableau : ${caption.textContent.trim()}` : "Tableau");
  }
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", focusableScrollers);
else focusableScrollers();

// The service worker (every page: a page read once is readable offline) and its updates: a new
// version of the site installs in the background; this page then says « Nouvelle version
// disponible » and, on the player's word, lets the game page save its game
// (window.gbBeforeUpdate), hands over to the new version and reloads.
(function updates() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  let base = ".";
  try {
    base = JSON.parse(document.getElementById("__config").textContent).base || ".";
  } catch (e) {
    base = ".";
  }
  const root = new URL(base.replace(/\/?$/, "/"), location.href);
  const offer = (worker) => {
    if (!navigator.serviceWorker.controller || document.getElementById("gb-update")) return;
    const box = document.createElement("div");
    box.id = "gb-update";
    box.className = "gb-update";
    box.setAttribute("role", "status");
    const text = document.createElement("p");
    text.textContent = "Nouvelle version disponible. Votre partie est enregistrée et reprendra après le rechargement.";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button md-button--primary";
    button.dataset.testid = "update";
    button.textContent = "Recharger avec la nouvelle version";
    button.addEventListener("click", () => {
      button.disabled = true;
      try {
        if (typeof window.gbBeforeUpdate === "function") window.gbBeforeUpdate();
      } catch (e) {
        console.warn(e);
      }
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
      worker.postMessage("gamebook:update");
    });
    box.append(text, button);
    const where = document.querySelector(".md-content__inner") || document.body;
    where.prepend(box);
  };
  // updateViaCache "none": the worker and the scripts it imports are always asked of the
  // network, so a new version is found at once (never an HTTP cache's stale copy)
  const options = { scope: root.href, updateViaCache: "none" };
  navigator.serviceWorker.register(new URL("sw.js", root), options).then((reg) => {
    if (reg.waiting) offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed") offer(worker);
      });
    });
    reg.update().catch(() => {});
  }).catch(() => {});
})();
