/* Tooltips for the edition's apparatus: glossary terms (a.gloss) and gaps (span.gap).
 *
 * The build (build_scripts/glossary.py, build_scripts/conventions.py) gives each such element
 * the class `ed-tip`, makes it focusable (a link, or tabindex="0") and points its
 * aria-describedby at a hidden description at the end of the page, which screen readers read
 * without any script. This script shows the same description in one floating box while the
 * element is hovered or has the keyboard focus. The box stays while the pointer is over it,
 * and Escape dismisses it.
 *
 * Listeners are delegated from the document, so they survive Material's instant navigation
 * (which replaces the page's content, not the document); the box is recreated if the
 * navigation removed it, and hidden whenever a new page is shown. No request, no library.
 */
(function () {
  "use strict";

  var BOX_ID = "ed-tooltip";
  var HIDE_DELAY_MS = 200;
  var current = null;     // the element whose description is shown
  var hideTimer = null;

  function box() {
    var el = document.getElementById(BOX_ID);
    if (!el) {
      el = document.createElement("div");
      el.id = BOX_ID;
      el.className = "ed-tooltip";
      el.setAttribute("role", "tooltip");
      // The description is already announced through aria-describedby: the box is visual.
      el.setAttribute("aria-hidden", "true");
      el.hidden = true;
      el.addEventListener("mouseenter", cancelHide);
      el.addEventListener("mouseleave", scheduleHide);
      document.body.appendChild(el);
    }
    return el;
  }

  function tipOf(target) {
    return target && target.closest ? target.closest(".ed-tip[aria-describedby]") : null;
  }

  function descriptionsOf(el) {
    var ids = (el.getAttribute("aria-describedby") || "").split(/\s+/);
    var found = [];
    for (var i = 0; i < ids.length; i++) {
      var d = ids[i] && document.getElementById(ids[i]);
      if (d && d.textContent.trim()) found.push(d);
    }
    return found;
  }

  function place(el, tip) {
    var r = el.getBoundingClientRect();
    var margin = 8;
    tip.style.maxWidth = Math.min(360, document.documentElement.clientWidth - 2 * margin) + "px";
    tip.style.left = "0px";
    tip.style.top = "0px";
    var w = tip.offsetWidth, h = tip.offsetHeight;
    var left = r.left + window.scrollX;
    var maxLeft = window.scrollX + document.documentElement.clientWidth - w - margin;
    left = Math.max(window.scrollX + margin, Math.min(left, maxLeft));
    var top = r.bottom + window.scrollY + 6;
    if (r.bottom + h + 12 > window.innerHeight && r.top > h + 12) {
      top = r.top + window.scrollY - h - 6; // no room below: show it above
    }
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  }

  function show(el) {
    cancelHide();
    var found = descriptionsOf(el);
    if (!found.length) return;
    var tip = box();
    tip.textContent = "";
    // Copies of the build's own markup (a headword in <b>, italics), never of page text.
    for (var i = 0; i < found.length; i++) {
      if (i) tip.appendChild(document.createTextNode(" "));
      for (var n = found[i].firstChild; n; n = n.nextSibling) tip.appendChild(n.cloneNode(true));
    }
    tip.hidden = false;
    tip.setAttribute("data-for", el.getAttribute("data-term") || "");
    current = el;
    place(el, tip);
  }

  function hide() {
    cancelHide();
    var tip = document.getElementById(BOX_ID);
    if (tip) tip.hidden = true;
    current = null;
  }

  function cancelHide() {
    if (hideTimer) { clearTimeout(hideTimer); hideTimer = null; }
  }

  function scheduleHide() {
    cancelHide();
    hideTimer = setTimeout(function () {
      // Keep it while the element still has the keyboard focus.
      if (current && document.activeElement === current) return;
      hide();
    }, HIDE_DELAY_MS);
  }

  document.addEventListener("mouseover", function (ev) {
    var el = tipOf(ev.target);
    if (el && el !== current) show(el);
    else if (el) cancelHide();
  });
  document.addEventListener("mouseout", function (ev) {
    var el = tipOf(ev.target);
    if (!el) return;
    var to = ev.relatedTarget;
    if (to && (el.contains(to) || (to.closest && to.closest("#" + BOX_ID)))) return;
    scheduleHide();
  });
  document.addEventListener("focusin", function (ev) {
    var el = tipOf(ev.target);
    if (el) show(el);
  });
  document.addEventListener("focusout", function (ev) {
    if (tipOf(ev.target) === current) hide();
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && current) hide();
  });
  window.addEventListener("resize", function () { if (current) place(current, box()); });

  // A new page (full load or instant navigation): nothing is hovered any more.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(function () { hide(); });
  }
})();
