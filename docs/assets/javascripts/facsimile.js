/* Plates and facsimile (issue 4): the transcription / facsimile / side-by-side switch, page
 * markers that open their page, and a full-resolution viewer for plates and pages.
 * Works offline (no external requests) and after instant navigation: it mounts from
 * mkdocs-material's document$ and marks what it has mounted. Without JavaScript the
 * transcription and the facsimile are simply shown one after the other. */
(function () {
  "use strict";

  var WIDE = window.matchMedia("(min-width: 76.25em)");
  var VIEWS = ["text", "facsimile", "both"];

  function setView(reader, view) {
    if (VIEWS.indexOf(view) < 0 || (view === "both" && !WIDE.matches)) view = "text";
    reader.setAttribute("data-view", view);
    var buttons = reader.querySelectorAll(".cadogan-reader__switch button");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", String(buttons[i].getAttribute("data-view") === view));
    }
    try { window.sessionStorage.setItem("cadogan-facsimile-view", view); } catch (e) { /* private mode */ }
  }

  function show(el) {
    if (!el) return;
    el.scrollIntoView({ block: "start" });
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: true });
  }

  function mountReader(reader) {
    if (reader.getAttribute("data-facsimile-mounted")) return;
    reader.setAttribute("data-facsimile-mounted", "1");
    reader.classList.add("is-mounted");
    var sw = reader.querySelector(".cadogan-reader__switch");
    if (sw) sw.hidden = false;
    var saved = null;
    try { saved = window.sessionStorage.getItem("cadogan-facsimile-view"); } catch (e) { saved = null; }
    setView(reader, saved || "text");
    reader.addEventListener("click", function (ev) {
      var target = ev.target instanceof Element ? ev.target : null;
      if (!target) return;
      var button = target.closest(".cadogan-reader__switch button");
      if (button) { setView(reader, button.getAttribute("data-view")); return; }
      var marker = target.closest("a.pb");
      if (marker) {
        ev.preventDefault();
        var view = reader.getAttribute("data-view");
        if (view === "text") setView(reader, WIDE.matches ? "both" : "facsimile");
        var page = document.getElementById(marker.getAttribute("href").slice(1));
        show(page || reader.querySelector(".facsimile"));
        return;
      }
      var back = target.closest("a.facsimile__back");
      if (back) {
        ev.preventDefault();
        if (reader.getAttribute("data-view") === "facsimile") setView(reader, "text");
        show(document.getElementById(back.getAttribute("href").slice(1)));
      }
    });
  }

  function zoomDialog() {
    var dialog = document.querySelector("dialog.cadogan-zoom");
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "cadogan-zoom";
    dialog.setAttribute("aria-label", "Full-resolution image");
    dialog.innerHTML = '<div class="cadogan-zoom__bar"><button type="button" class="cadogan-zoom__fit">' +
      'Actual size</button> <a class="cadogan-zoom__open" href="#">Open the file</a> ' +
      '<button type="button" class="cadogan-zoom__close">Close</button></div>' +
      '<div class="cadogan-zoom__frame"><img alt=""></div>';
    document.body.appendChild(dialog);
    var fit = dialog.querySelector(".cadogan-zoom__fit");
    function toggle() {
      var actual = dialog.classList.toggle("is-actual");
      fit.textContent = actual ? "Fit to window" : "Actual size";
    }
    fit.addEventListener("click", toggle);
    dialog.querySelector("img").addEventListener("click", toggle);
    dialog.querySelector(".cadogan-zoom__close").addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("click", function (ev) { if (ev.target === dialog) dialog.close(); });
    return dialog;
  }

  function mountZoom(link) {
    if (link.getAttribute("data-zoom-mounted")) return;
    link.setAttribute("data-zoom-mounted", "1");
    link.addEventListener("click", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
      var dialog = zoomDialog();
      if (typeof dialog.showModal !== "function") return; /* old browser: follow the link */
      ev.preventDefault();
      var img = dialog.querySelector("img");
      var inner = link.querySelector("img");
      img.src = link.href;
      img.alt = inner ? inner.alt : "";
      dialog.querySelector(".cadogan-zoom__open").href = link.href;
      dialog.classList.remove("is-actual");
      dialog.querySelector(".cadogan-zoom__fit").textContent = "Actual size";
      dialog.showModal();
    });
  }

  function mount() {
    var readers = document.querySelectorAll(".cadogan-reader");
    for (var i = 0; i < readers.length; i++) mountReader(readers[i]);
    var links = document.querySelectorAll("a.cadogan-plate__zoom, a.facsimile__zoom");
    for (var j = 0; j < links.length; j++) mountZoom(links[j]);
  }

  WIDE.addEventListener("change", function () {
    var readers = document.querySelectorAll(".cadogan-reader[data-view='both']");
    for (var i = 0; i < readers.length; i++) setView(readers[i], "text");
  });

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(mount);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mount);
  } else {
    mount();
  }
})();
