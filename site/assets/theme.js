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
