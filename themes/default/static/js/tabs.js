// Tabs for the "tabs" shortcode, as progressive enhancement. Without this
// script every panel shows under its own heading and the tab list stays
// hidden. With it, the tab list appears, one panel shows at a time, the
// arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern with
// automatic activation), and the root is marked data-ready="true".
(function () {
  "use strict";

  function setup(root) {
    var list = root.querySelector('[role="tablist"]');
    if (!list || root.getAttribute("data-ready") === "true") {
      return;
    }
    var tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
    var panels = tabs.map(function (tab) {
      return document.getElementById(tab.getAttribute("aria-controls"));
    });
    if (tabs.length === 0 || panels.indexOf(null) >= 0) {
      return;
    }

    function select(index, focus) {
      tabs.forEach(function (tab, i) {
        var on = i === index;
        tab.setAttribute("aria-selected", on ? "true" : "false");
        tab.tabIndex = on ? 0 : -1;
        panels[i].hidden = !on;
      });
      if (focus) {
        tabs[index].focus();
      }
    }

    tabs.forEach(function (tab, i) {
      tab.addEventListener("click", function () {
        select(i, false);
      });
    });
    list.addEventListener("keydown", function (ev) {
      var i = tabs.indexOf(document.activeElement);
      if (i < 0) {
        return;
      }
      var next;
      switch (ev.key) {
        case "ArrowRight":
          next = (i + 1) % tabs.length;
          break;
        case "ArrowLeft":
          next = (i - 1 + tabs.length) % tabs.length;
          break;
        case "Home":
          next = 0;
          break;
        case "End":
          next = tabs.length - 1;
          break;
        default:
          return;
      }
      ev.preventDefault();
      select(next, true);
    });

    // The tab labels now name the panels; their headings would repeat them.
    panels.forEach(function (panel) {
      var heading = panel.querySelector(".tab-heading");
      if (heading) {
        heading.hidden = true;
      }
    });
    var first = tabs.map(function (t) { return t.getAttribute("aria-selected"); }).indexOf("true");
    select(first < 0 ? 0 : first, false);
    list.hidden = false;
    root.setAttribute("data-ready", "true");
  }

  function init() {
    var roots = document.querySelectorAll(".tabs[data-tabs]");
    for (var i = 0; i < roots.length; i++) {
      setup(roots[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
