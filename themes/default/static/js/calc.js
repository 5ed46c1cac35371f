// Calculator widgets (shortcodes quorum, san and ha-sim), as progressive
// enhancement. The page already shows each widget's result for its
// starting values, computed at build time, and keeps showing them until
// the calculators run; meanwhile its note says the calculator is loading
// (a live region; the markup's <noscript> says JavaScript is needed only
// where scripting is off) and its form is aria-busy. This script fetches (instantiateStreaming's
// way, compiling as the bytes arrive), compiles and runs the calculator
// module, once for the page, on the reader's first interaction with a
// widget (pointer over it, touch, focus) or, once a widget has come near
// the viewport, when the browser is idle a few seconds after the page
// loaded, whichever comes first: compiling and starting the Go runtime
// are long tasks on a slow phone and never compete with the page's
// loading. Then it
// wires every widget to globalThis.kakehashi.calc (docs/calc-api.md),
// enables its form and marks it data-ready="true". The calc-x509 module
// is loaded only when a certificate is pasted.
//
// The build names its files by a hash of their bytes and writes their
// names into this script (assets below, relative to the script: exec for
// wasm_exec.js, calc and calc-x509 for the modules, css for the widgets'
// stylesheet); without them, the plain names beside this script are used.
// Nothing the page holds changes where a script or module comes from:
// content sets no behaviour. A page opened from file:// cannot fetch, so
// there a module comes as a script defining
// globalThis.kakehashiWasm[name] = "<base64>", "<module URL>.js", loaded
// at once (or already defined).
(function () {
  "use strict";

  var roots = Array.prototype.slice.call(document.querySelectorAll("[data-calc]"));
  if (!roots.length) {
    return;
  }
  var self = document.currentScript;
  var base = self && self.src ? self.src : location.href;
  // The page's language, as the build wrote it on <html lang>; the
  // calculators give the texts of a language they lack in English.
  var lang = document.documentElement.lang;
  var loads = {};
  // The published names of the files this script loads, written by the
  // build.
  var assets = /*kakehashi:assets*/{};
  var fromFile = location.protocol === "file:";

  // busy marks a widget's form busy until its module runs.
  function busy(root, on) {
    var form = root.querySelector("form");
    if (form) {
      if (on) {
        form.setAttribute("aria-busy", "true");
      } else {
        form.removeAttribute("aria-busy");
      }
    }
  }
  roots.forEach(function (root) {
    busy(root, true);
  });

  // The widgets' stylesheet, unless the page links it already.
  if (!document.querySelector('link[href*="css/calc."]')) {
    var css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL(assets.css || "../css/calc.css", base).href;
    document.head.appendChild(css);
  }

  // each calls fn on every element under el that matches sel.
  function each(el, sel, fn) {
    Array.prototype.forEach.call(el.querySelectorAll(sel), fn);
  }

  // url resolves one of the build's names against this script's own URL.
  function url(name) {
    return new URL(name, base).href;
  }

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () {
        reject(new Error("cannot load " + src));
      };
      document.head.appendChild(s);
    });
  }

  function decode(b64) {
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) {
      out[i] = bin.charCodeAt(i);
    }
    return out;
  }

  // script is module name as a script defined it, base64, if one did.
  function script(name) {
    return globalThis.kakehashiWasm && globalThis.kakehashiWasm[name];
  }

  function fromScript(name, src, imports) {
    return (script(name) ? Promise.resolve() : loadScript(src)).then(function () {
      var b64 = script(name);
      if (!b64) {
        throw new Error(src + " defines no module " + name);
      }
      return WebAssembly.instantiate(decode(b64), imports);
    });
  }

  // compile fetches and compiles a module once, streaming where the
  // browser can (the work happens off the main thread); a server that
  // does not say application/wasm fails streaming, so the bytes are
  // compiled then.
  var compiled = {};
  function compile(src) {
    if (compiled[src]) {
      return compiled[src];
    }
    function viaBuffer() {
      return fetch(src).then(function (r) {
        if (!r.ok) {
          throw new Error(src + ": " + r.status);
        }
        return r.arrayBuffer();
      }).then(function (b) {
        return WebAssembly.compile(b);
      });
    }
    compiled[src] = WebAssembly.compileStreaming ? WebAssembly.compileStreaming(fetch(src)).catch(viaBuffer) : viaBuffer();
    return compiled[src];
  }

  function fetchModule(src, imports) {
    return compile(src).then(function (mod) {
      return WebAssembly.instantiate(mod, imports);
    });
  }

  // load runs module name ("calc" or "calc-x509") once per page and
  // resolves when globalThis.kakehashi[readyKey] is true.
  function load(name, readyKey, event) {
    if (loads[name]) {
      return loads[name];
    }
    loads[name] = (typeof Go === "function" ? Promise.resolve() : (loads.exec = loads.exec ||
      loadScript(url(assets.exec || "wasm_exec.js")))).then(function () {
      var go = new Go();
      var src = url(assets[name] || "../calc/" + name + ".wasm");
      var p;
      if (fromFile || script(name)) {
        p = fromScript(name, src + ".js", go.importObject);
      } else {
        p = fetchModule(src, go.importObject);
      }
      return p.then(function (res) {
        var ready = new Promise(function (resolve) {
          globalThis.addEventListener(event, resolve, { once: true });
        });
        go.run(res.instance || res);
        var ns = globalThis.kakehashi;
        return ns && ns[readyKey] ? undefined : ready;
      });
    });
    return loads[name];
  }

  // data reads a widget's JSON attribute: data-text (its UI strings) or
  // data-input (its starting input).
  function data(root, name) {
    try {
      return JSON.parse(root.getAttribute("data-" + name) || "{}");
    } catch (e) {
      return {};
    }
  }

  function fill(s, args) {
    return String(s || "").replace(/\{(\w+)\}/g, function (m, k) {
      return k in args ? String(args[k]) : m;
    });
  }

  function mark(ok, yes, no) {
    return ok ? "\u2713 " + yes : "\u2717 " + no;
  }

  function out(root, name) {
    return root.querySelector('[data-out="' + name + '"]');
  }

  function set(root, name, value, ok) {
    var el = out(root, name);
    if (!el) {
      return;
    }
    el.textContent = value;
    if (ok === null) {
      el.removeAttribute("data-ok");
    } else if (ok !== undefined) {
      el.setAttribute("data-ok", ok ? "true" : "false");
    }
  }

  // call runs a calculator; a thrown error becomes {error} like the API's.
  function call(fn, arg) {
    try {
      var f = globalThis.kakehashi && globalThis.kakehashi.calc && globalThis.kakehashi.calc[fn];
      var r = f ? f(arg) : null;
      return r && typeof r === "object" ? r : { error: fn + ": no result" };
    } catch (e) {
      return { error: String(e && e.message || e) };
    }
  }

  // key is the name of the field at fault in a result: its errorField
  // without an index or path ("certSANs" for "certSANs[1]").
  function key(r) {
    return String(r.errorField || "").split(/[.[]/)[0];
  }

  // message is the text of a result's error a reader sees: the visible
  // label of the field at fault (the widget's UI string named as the
  // field), then what to enter, as t.field_error lays them out; never the
  // API's name of the field.
  function message(t, r) {
    var label = t.hasOwnProperty(key(r)) && t[key(r)];
    return !r.errorText ? r.error : label && t.field_error ? fill(t.field_error, { label: label, text: r.errorText }) : r.errorText;
  }

  // showError shows a result's error (or hides the error line) and reports
  // whether there was one; then the facts read "—". A value not entered
  // yet (err.empty) is no error: the status asks for it, and the error
  // line stays hidden. The field at fault is marked aria-invalid and
  // described by the error.
  function showError(root, t, r) {
    var el = out(root, "error");
    each(root, "[aria-invalid]", function (f) {
      f.removeAttribute("aria-invalid");
      f.removeAttribute("aria-describedby");
    });
    var err = r && r.error;
    var empty = !!err && r.errorCode === "err.empty";
    el.textContent = err && !empty ? message(t, r) : "";
    el.hidden = !err || empty;
    root.toggleAttribute("data-prompt", empty);
    if (err) {
      each(root, "dd[data-out]", function (dd) {
        dd.textContent = "\u2014";
        dd.removeAttribute("data-ok");
      });
      set(root, "status", empty ? message(t, r) : "", null);
      var ul = root.querySelector("ul.calc-notes");
      if (ul) {
        ul.textContent = "";
      }
      // The node name's field is not named after the API's (see field).
      var f = !empty && key(r) && field(root, key(r) === "nodeName" ? "node-name" : key(r));
      if (f) {
        f.setAttribute("aria-invalid", "true");
        f.setAttribute("aria-describedby", el.id);
      }
    }
    return !!err;
  }

  function list(root, name, reasons) {
    var ul = name && out(root, name);
    if (!ul) {
      return;
    }
    ul.textContent = "";
    (reasons || []).forEach(function (r) {
      var li = document.createElement("li");
      li.setAttribute("data-code", r.code || "");
      li.textContent = r.text || "";
      ul.appendChild(li);
    });
  }

  // codes lists items as code in dd name, or writes none when there are
  // none.
  function codes(root, name, items, none) {
    var dd = out(root, name);
    dd.textContent = items && items.length ? "" : none || "";
    (items || []).forEach(function (s, i) {
      if (i) {
        dd.appendChild(document.createTextNode(", "));
      }
      var c = document.createElement("code");
      c.textContent = s;
      dd.appendChild(c);
    });
  }

  // field finds a form field by its name. No field is named after a
  // property of the form element (nodeName, id, action…): such a field
  // would hide it from every script, so the SAN widget's node name is
  // "node-name".
  function field(root, name) {
    return root.querySelector('[name="' + name + '"]');
  }

  // number is a number field's value as the calculators read it: its
  // text ("" when cleared), or NaN when the browser holds text it cannot
  // read as a number (the field's value is "" then too).
  function number(el) {
    return el.validity && el.validity.badInput ? NaN : el.value;
  }

  // Each widget: update(root) recomputes from the form and shows the result.
  var widgets = {
    quorum: {
      wire: function (root, t, update) {
        root.querySelector("form").addEventListener("input", update);
      },
      update: function (root, t) {
        var r = call("quorum", { members: number(field(root, "members")), failed: number(field(root, "failed")), lang: lang });
        if (showError(root, t, r)) {
          return;
        }
        var args = { alive: r.alive, members: r.members, quorum: r.quorum };
        set(root, "status", fill(r.writable ? t.quorum_ok : t.quorum_lost, args));
        set(root, "quorum", r.quorum);
        set(root, "tolerance", r.tolerance);
        set(root, "alive", r.alive);
        set(root, "writable", mark(r.writable, t.yes, t.no), r.writable);
        list(root, "advice", r.advice);
      }
    },

    san: {
      wire: function (root, t, update) {
        var form = root.querySelector("form");
        form.addEventListener("input", update);
        form.addEventListener("change", update);
      },
      update: function (root, t) {
        var v = function (n) {
          return field(root, n).value.trim();
        };
        var certSANs = v("certSANs").split(",").map(function (s) {
          return s.trim();
        }).filter(Boolean);
        var r = call("sans", {
          kind: v("kind"), etcd: v("etcd"), nodeName: v("node-name"), advertiseAddress: v("advertiseAddress"),
          controlPlaneEndpoint: v("controlPlaneEndpoint"), serviceSubnet: v("serviceSubnet"),
          dnsDomain: v("dnsDomain"), certSANs: certSANs, lang: lang
        });
        if (showError(root, t, r)) {
          return;
        }
        // The certificate's names, shown also when only the verdict fails.
        var names = function () {
          codes(root, "dns", r.dns, t.none);
          codes(root, "ips", r.ips, t.none);
          codes(root, "certs", (r.certificates || []).map(function (c) {
            return c.file;
          }));
          list(root, "warnings", r.warnings);
        };
        names();
        var seq = (root.__seq = (root.__seq || 0) + 1);
        if (r.created === false) {
          // kubeadm makes no such certificate: nothing to verify.
          set(root, "verify", "\u2014");
          set(root, "status", t.no_cert, null);
          return;
        }
        var pem = field(root, "pem").value;
        var dial = v("dial");
        var show = function (vr) {
          if (vr.error) {
            showError(root, t, vr);
            names();
            return;
          }
          var msg = vr.reason ? vr.reason.text : "";
          if (vr.certInfo) {
            msg += " " + vr.certInfo.text;
          }
          set(root, "verify", msg);
          set(root, "status", fill(vr.ok ? t.san_ok : t.san_fail, { dial: dial }), vr.ok);
        };
        if (!pem.trim()) {
          show(call("verifyHost", { sans: { dns: r.dns, ips: r.ips }, dial: dial, lang: lang }));
          return;
        }
        if (!(globalThis.kakehashi && globalThis.kakehashi.calcX509Ready)) {
          set(root, "verify", t.pem_loading || "\u2026");
        }
        load("calc-x509", "calcX509Ready", "kakehashi:calc-x509-ready").then(function () {
          if (seq === root.__seq) {
            show(call("verifyHost", { pem: pem, dial: dial, lang: lang }));
          }
        }, function (err) {
          if (seq === root.__seq) {
            show({ error: String(err && err.message || err) });
          }
        });
      }
    },

    "ha-sim": {
      wire: function (root, t, update) {
        var st = root.__state;
        var downLabel = root.getAttribute("data-down-label") || "";
        each(root, "svg", function (svg) {
          liven(svg, downLabel);
        });
        var toggle = function (e) {
          var g = e.target.closest && e.target.closest("[data-node]");
          if (!g || !root.contains(g)) {
            return;
          }
          if (e.type === "keydown") {
            if (e.key !== "Enter" && e.key !== " ") {
              return;
            }
            e.preventDefault();
          }
          var id = g.getAttribute("data-node");
          var i = st.failed.indexOf(id);
          if (i >= 0) {
            st.failed.splice(i, 1);
          } else {
            st.failed.push(id);
          }
          update();
        };
        root.addEventListener("click", toggle);
        root.addEventListener("keydown", toggle);
        field(root, "endpoint").addEventListener("change", function (e) {
          st.kind = e.target.value;
          st.failed = st.failed.filter(function (f) {
            return f !== "lb" || st.kind === "lb";
          });
          update();
        });
        root.querySelector("[data-reset]").addEventListener("click", function () {
          st.failed = [];
          update();
        });
      },
      update: function (root, t) {
        var st = root.__state;
        var inp = st.input;
        each(root, "[data-endpoint]", function (d) {
          d.hidden = d.getAttribute("data-endpoint") !== st.kind;
          paint(d, st.failed, root.getAttribute("data-down-label") || "");
        });
        var arg = {
          topology: inp.topology, controlPlanes: inp.controlPlanes, endpoint: (inp.endpoints || {})[st.kind],
          failed: st.failed.slice(), lang: lang
        };
        if (inp.etcdMembers) {
          arg.etcdMembers = inp.etcdMembers;
        }
        var r = call("haSimulate", arg);
        if (showError(root, t, r)) {
          return;
        }
        set(root, "status", r.kubectlWorks ? t.ha_ok : t.ha_fail, r.kubectlWorks);
        set(root, "failed", st.failed.length ? st.failed.slice().sort().join(", ") : t.none);
        var args = { alive: r.etcdMembersAlive, members: r.etcdMembers, quorum: r.etcdQuorum };
        set(root, "etcd", fill(r.etcdWritable ? t.etcd_ok : t.etcd_lost, args), r.etcdWritable);
        set(root, "apiservers", r.apiserversServing && r.apiserversServing.length ? r.apiserversServing.join(", ") : t.none);
        set(root, "endpoint", mark(r.apiReachableViaEndpoint, t.reachable, t.unreachable), r.apiReachableViaEndpoint);
        set(root, "kubectl", mark(r.kubectlWorks, t.works, t.fails), r.kubectlWorks);
        set(root, "kubelets", mark(r.workerKubeletsReachApi, t.reachable, t.unreachable), r.workerKubeletsReachApi);
        list(root, "reasons", r.reasons);
      }
    }
  };

  var SVG = "http://www.w3.org/2000/svg";

  // liven removes the failure marks drawn at build time, so that paint
  // alone shows the reader's failures, and keeps each button's label.
  function liven(svg, downLabel) {
    each(svg, "[data-node]", function (g) {
      var label = g.getAttribute("aria-label") || "";
      if (downLabel && label.slice(-downLabel.length) === downLabel) {
        label = label.slice(0, -downLabel.length);
      }
      g.setAttribute("data-label", label);
    });
    each(svg, "path.x, tspan.downmark", function (el) {
      el.parentNode.removeChild(el);
    });
    each(svg, "g.dim", function (g) {
      while (g.firstChild) {
        g.parentNode.insertBefore(g.firstChild, g);
      }
      g.parentNode.removeChild(g);
    });
    each(svg, ".halo, .dead", function (el) {
      el.classList.remove("halo");
      el.classList.remove("dead");
    });
    each(svg, "[marker-end]", function (el) {
      el.setAttribute("marker-end", el.getAttribute("marker-end").replace("-arrow-dead", "-arrow"));
    });
    svg.classList.add("calc-live");
  }

  // paint marks the failed nodes and components of one drawing.
  function paint(wrap, failed, downLabel) {
    each(wrap, "[data-node]", function (g) {
      var id = g.getAttribute("data-node");
      var down = failed.indexOf(id) >= 0;
      var at = id.indexOf("@");
      var dim = down || (at > 0 && failed.indexOf(id.slice(at + 1)) >= 0);
      g.setAttribute("aria-pressed", down ? "true" : "false");
      g.setAttribute("aria-label", (g.getAttribute("data-label") || id) + (down ? downLabel : ""));
      g.classList.toggle("calc-down", down);
      g.classList.toggle("calc-dim", dim);
      var old = g.querySelector(".calc-x");
      if (old) {
        g.removeChild(old);
      }
      var r = g.querySelector("rect");
      if (down && r) {
        var x = +r.getAttribute("x"), y = +r.getAttribute("y");
        var w = +r.getAttribute("width"), h = +r.getAttribute("height");
        var k = h < 30 ? 4 : 8;
        var p = document.createElementNS(SVG, "path");
        p.setAttribute("class", "calc-x");
        p.setAttribute("d", "M" + (x + k) + " " + (y + k) + "L" + (x + w - k) + " " + (y + h - k) +
          "M" + (x + w - k) + " " + (y + k) + "L" + (x + k) + " " + (y + h - k));
        g.appendChild(p);
      }
    });
  }

  function wire(root) {
    var kind = root.getAttribute("data-calc");
    var w = widgets[kind];
    if (!w || root.getAttribute("data-ready") === "true") {
      return;
    }
    var t = data(root, "text");
    var inp = data(root, "input");
    root.__state = { input: inp, kind: inp.endpoint && inp.endpoint.kind, failed: Array.isArray(inp.failed) ? inp.failed.slice() : [] };
    var update = function () {
      w.update(root, t);
    };
    w.wire(root, t, update);
    var fs = root.querySelector("fieldset");
    if (fs) {
      fs.disabled = false;
    }
    busy(root, false);
    var st = root.querySelector("[data-static]");
    if (st) {
      st.hidden = true;
    }
    update();
    root.setAttribute("data-ready", "true");
  }

  var started = false;
  function start() {
    if (started) {
      return;
    }
    started = true;
    load("calc", "calcReady", "kakehashi:calc-ready").then(function () {
      roots.forEach(function (root) {
        try {
          wire(root);
        } catch (err) {
          console.error("kakehashi calculator " + root.id + ":", err);
        }
      });
    }, function (err) {
      // Keep the build-time results; say that the widgets stay static.
      roots.forEach(function (root) {
        root.setAttribute("data-ready", "false");
        busy(root, false);
        var note = root.querySelector("[data-loading]");
        var failed = data(root, "text").load_failed;
        if (note && failed) {
          note.textContent = failed;
        }
      });
      if (globalThis.console) {
        console.warn("kakehashi calculators:", err);
      }
    });
  }

  // A reader reaching for a widget starts the calculators at once.
  roots.forEach(function (r) {
    ["pointerover", "pointerdown", "touchstart", "focusin"].forEach(function (type) {
      r.addEventListener(type, start, { capture: true, passive: true, once: true });
    });
  });

  // Near the viewport: fetch, compile and run the module (a long task
  // on a slow phone, compiling as much as starting the Go runtime) only
  // once the page has settled: idle, a few seconds after it loaded.
  function near() {
    var later = function () {
      setTimeout(function () {
        // Without requestIdleCallback, setTimeout runs it next (the
        // options object is no delay).
        (globalThis.requestIdleCallback || setTimeout)(start, { timeout: 2000 });
      }, 5000);
    };
    if (document.readyState === "complete") {
      later();
    } else {
      globalThis.addEventListener("load", later, { once: true });
    }
  }

  if (!("IntersectionObserver" in globalThis)) {
    near();
    return;
  }
  var io = new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; })) {
      io.disconnect();
      near();
    }
  }, { rootMargin: "200px" });
  roots.forEach(function (r) {
    io.observe(r);
  });
})();
