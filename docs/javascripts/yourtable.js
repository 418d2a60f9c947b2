/* "Your table": a game page's options as a small form. Every piece of the rules (a paragraph, step,
   hand, quick-reference line) was rendered at build time for each combination of the options it reads
   (rulekit/website/yourtable.py and tablecombos.py, the same code as `rulekit rules --house`), so the
   page shows all the changes of a piece together, whatever order they were chosen in. Changed words are
   marked. The house file is written by a small YAML serializer (every string double-quoted and escaped),
   never by joining the user's text into lines. Plain JavaScript, no server, works offline; without
   JavaScript the panel stays hidden and the page reads as it always did. No markup is ever built from
   data: only text nodes. */
(function () {
  "use strict";
  var SKIP = ".rk-yourtable, .rk-ytp, script, style, .rk-options-fold, .rk-machine, .headerlink";

  // -- YAML: the house file ---------------------------------------------------------------------
  function hex(n, w) { var s = n.toString(16).toUpperCase(); while (s.length < w) s = "0" + s; return s; }

  /** A YAML double-quoted scalar holding exactly `s` (all ASCII: everything else escaped). */
  function yamlString(s) {
    var out = "\"";
    Array.from(String(s)).forEach(function (ch) {
      var c = ch.codePointAt(0);
      if (ch === "\"") out += "\\\"";
      else if (ch === "\\") out += "\\\\";
      else if (c >= 0x20 && c < 0x7f) out += ch;
      else if (c === 10) out += "\\n";
      else if (c === 9) out += "\\t";
      else if (c <= 0xffff) out += "\\u" + hex(c, 4);
      else out += "\\U" + hex(c, 8);
    });
    return out + "\"";
  }

  function yamlKey(k) { return /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : yamlString(k); }

  function yamlValue(o, v) {
    if (o.type === "int" && /^-?[0-9]+$/.test(String(v))) return String(Number(v));
    if (o.type === "bool" && (v === "true" || v === "false")) return v;
    return yamlString(v);
  }

  /** The house file for these choices: name, note, target, options (the loader reads it back exactly). */
  function houseFile(data, name, note, chosen) {
    var lines = ["# House rules for " + data.game + ", written by its rules page.",
                 "# Check it with: rulekit validate FILE; read it with: rulekit rules " + data.game + " --house FILE",
                 "name: " + yamlString(name || "Our table")];
    if (note) lines.push("note: " + yamlString(note));
    lines.push("target: " + yamlString(data.game));
    var keys = data.options.map(function (o) { return o.name; }).filter(function (k) { return k in chosen; });
    if (keys.length) {
      lines.push("options:");
      keys.forEach(function (k) {
        var o = data.options.filter(function (x) { return x.name === k; })[0];
        lines.push("  " + yamlKey(k) + ": " + yamlValue(o, chosen[k]));
      });
    }
    return lines.join("\n") + "\n";
  }

  // -- the pieces of the rules ------------------------------------------------------------------
  function valueOf(data, chosen, name) {
    return Object.prototype.hasOwnProperty.call(chosen, name) ? chosen[name] : data.defaults[name];
  }

  /** The text (segments) of a piece for the values chosen, and whether it differs from the page's. */
  function pieceText(data, chosen, p) {
    var changed = false, key = p.deps.map(function (n) {
      var v = valueOf(data, chosen, n);
      if (v !== data.defaults[n]) changed = true;
      if (p.exact[n] && p.exact[n].indexOf(v) < 0) return "*";
      return v;
    }).join("|");
    var i = Object.prototype.hasOwnProperty.call(p.t, key) ? p.t[key] : null;
    if (!changed) return {segs: data.texts[p.std], changed: false, missing: false};
    if (i === null) return {segs: data.texts[p.std], changed: true, missing: true};
    var whole = p.id.indexOf("quick/") === 0 && i !== p.std;  // a quick-reference line: marked whole
    var segs = data.texts[i].map(function (s) {
      var w = s[0];
      p.deps.forEach(function (n) { w = w.split(data.token + n + data.token).join(valueOf(data, chosen, n)); });
      return [w, whole ? "m" : s[1]];
    });
    return {segs: segs, changed: true, missing: false};
  }

  function build(segs, missing) {
    var frag = document.createDocumentFragment();
    segs.forEach(function (s) {
      var el;
      if (s[1] === "m") { el = document.createElement("mark"); el.className = "rk-yt-changed"; el.title = "your house rule"; }
      else if (s[1] === "b") el = document.createElement("strong");
      if (el) { el.textContent = s[0]; frag.appendChild(el); } else frag.appendChild(document.createTextNode(s[0]));
    });
    if (missing) {  // too many combinations for this piece: it says so rather than guess
      var note = document.createElement("mark");
      note.className = "rk-yt-changed rk-yt-missing";
      note.textContent = " (changed by your house rules: see the list in Your table)";
      frag.appendChild(note);
    }
    return frag;
  }

  /** Every text character of `root` on one line (runs of space as one), with the node and offset it is at. */
  function textMap(root, skip) {
    var chars = [], where = [], space = true;
    var walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, null);
    while (walk.nextNode()) {
      var n = walk.currentNode;
      if (n.parentNode.closest(skip)) continue;
      var s = n.nodeValue;
      for (var i = 0; i < s.length; i++) {
        var c = s[i];
        if (c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\u00a0") {
          if (space) continue;
          c = " "; space = true;
        } else space = false;
        chars.push(c); where.push([n, i]);
      }
    }
    return {text: chars.join(""), where: where};
  }

  function setup(panel) {
    if (panel.getAttribute("data-ready")) return;
    panel.setAttribute("data-ready", "1");
    var data = JSON.parse(panel.querySelector(".rk-yt-data").textContent);
    var article = panel.closest("article") || document.body;
    var form = panel.querySelector(".rk-yt-options");
    var yaml = panel.querySelector(".rk-yt-yaml");
    var download = panel.querySelector(".rk-yt-download");
    var nameIn = panel.querySelector(".rk-yt-name"), noteIn = panel.querySelector(".rk-yt-note");
    var view = panel.querySelector(".rk-ytp");
    var chosen = {}, swaps = [];
    var byId = {};
    data.pieces.forEach(function (p) { byId[p.id] = p; });
    // the print view: a child of <body>, so printing it can leave out everything else
    document.querySelectorAll("body > .rk-ytp").forEach(function (old) { old.remove(); });
    if (view) document.body.appendChild(view);  // still hidden: only the print stylesheet shows it

    function restore() {  // the page's own words back, nodes and all
      swaps.reverse().forEach(function (s) { s.span.replaceWith(s.orig); });
      swaps = [];
      article.normalize();
    }

    var unplaced = [];  // changed pieces the page has no place for (the print view still has them)
    function swapIn(root, skip, list) {
      var map = textMap(root, skip), todo = [], taken = {};
      // pieces with words first: a text the page shows once goes to the piece that still says something
      var said = function (p) { return pieceText(data, chosen, p).segs.length ? 0 : 1; };
      list.slice().sort(function (a, b) { return said(a) - said(b); }).forEach(function (p) {
        var r = pieceText(data, chosen, p);
        if (!r.changed) return;
        // the same words twice on the page (one choice made at two steps): each changed piece its own
        // place (a text the page shows once goes to the piece that changes it)
        var at = p.page ? map.text.indexOf(p.page) : -1;
        while (at >= 0 && taken[at]) at = map.text.indexOf(p.page, at + 1);
        if (at >= 0) taken[at] = true;
        if (at < 0) {
          var now = r.segs.map(function (x) { return x[0]; }).join("");
          if (now && now !== data.texts[p.std].map(function (x) { return x[0]; }).join("")) unplaced.push(p.id);
          return;
        }
        todo.push({at: at, end: at + p.page.length - 1, r: r});
      });
      todo.sort(function (a, b) { return b.at - a.at; });  // from the end: earlier places stay where they are
      var last = Infinity;
      todo.forEach(function (t) {
        if (t.end >= last) return;  // overlaps a piece already swapped
        last = t.at;
        var a = map.where[t.at], b = map.where[t.end], range = document.createRange();
        range.setStart(a[0], a[1]);
        range.setEnd(b[0], b[1] + 1);
        var orig = range.extractContents(), span = document.createElement("span");
        span.className = "rk-yt-piece";
        span.appendChild(build(t.r.segs, t.r.missing));
        range.insertNode(span);
        swaps.push({span: span, orig: orig});
      });
    }

    function fillView() {
      if (!view) return;
      view.querySelectorAll("[data-piece]").forEach(function (el) {
        var p = byId[el.getAttribute("data-piece")];
        if (!p) return;  // a piece no option reaches: as printed
        var r = pieceText(data, chosen, p), text = r.segs.map(function (s) { return s[0]; }).join("");
        el.textContent = "";
        el.appendChild(build(r.segs, r.missing));
        el.hidden = !text;
      });
      // a step, choice or hand this table does not play is left out (innermost first)
      Array.prototype.slice.call(view.querySelectorAll("li")).reverse().forEach(function (li) {
        var parts = li.querySelectorAll("[data-piece]");
        if (!parts.length) return;
        li.hidden = Array.prototype.every.call(parts, function (el) { return el.hidden; });
      });
      view.querySelector(".rk-ytp-name").textContent = nameIn.value || "Our table";
      view.querySelector(".rk-ytp-note").textContent = noteIn.value;
      var box = view.querySelector(".rk-ytp-changes"), ul = box.querySelector("ul");
      ul.textContent = "";
      changes().forEach(function (c) { var li = document.createElement("li"); li.textContent = c; ul.appendChild(li); });
      box.hidden = !ul.children.length;
    }

    function changes() {
      return data.options.filter(function (o) { return o.name in chosen; }).map(function (o) {
        var w = data.words[o.name], v = chosen[o.name];
        var said = Object.prototype.hasOwnProperty.call(w, v) ? w[v] : (w["*"] || (o.label + ": " + v + "."));
        return said.split(data.token + o.name + data.token).join(v);
      });
    }

    function apply() {
      restore();
      unplaced = [];
      var quick = article.querySelector(".rk-quick");
      swapIn(article, SKIP + ", .rk-quick", data.pieces.filter(function (p) { return p.id.indexOf("quick/") !== 0; }));
      if (quick) swapIn(quick, SKIP, data.pieces.filter(function (p) { return p.id.indexOf("quick/") === 0; }));
      fillView();
      var text = houseFile(data, nameIn.value.trim(), noteIn.value.trim(), chosen);
      yaml.textContent = text;
      if (download.href.indexOf("blob:") === 0) URL.revokeObjectURL(download.href);
      download.href = URL.createObjectURL ? URL.createObjectURL(new Blob([text], {type: "text/yaml"}))
        : "data:text/yaml;charset=utf-8," + encodeURIComponent(text);
      panel.setAttribute("data-unplaced", unplaced.join(" "));
    }

    data.options.forEach(function (o) {
      var row = document.createElement("label");
      row.className = "rk-yt-option";
      var name = document.createElement("span");
      name.textContent = o.label;
      row.appendChild(name);
      var input;
      if (o.type === "int") {
        input = document.createElement("input");
        input.type = "number";
        input.step = "1";
        if (o.min !== null) input.min = o.min;
        if (o.max !== null) input.max = o.max;
        input.value = o.default;
      } else {
        input = document.createElement("select");
        var values = o.type === "bool" ? [["true", "yes"], ["false", "no"]] : o.values;
        values.forEach(function (v) {
          var opt = document.createElement("option");
          opt.value = v[0];
          opt.textContent = v[1] || v[0];
          if (v[0] === o.default) opt.selected = true;
          input.appendChild(opt);
        });
      }
      input.name = o.name;
      input.setAttribute("data-option", o.name);
      var said = null;
      if (o.type === "choice") {  // a choice's words in full under the field (a closed list shows only its start)
        said = document.createElement("small");
        said.className = "rk-yt-said";
        said.textContent = input.options[input.selectedIndex] ? input.options[input.selectedIndex].textContent : "";
        input.addEventListener("change", function () {
          said.textContent = input.options[input.selectedIndex] ? input.options[input.selectedIndex].textContent : "";
        });
      }
      input.addEventListener("change", function () {
        var v = input.value;
        if (o.type === "int") {
          var n = Math.round(Number(v));
          if (v === "" || isNaN(n) || (o.min !== null && n < o.min) || (o.max !== null && n > o.max)) {
            input.value = o.default; n = Number(o.default);
          }
          v = String(n);
        }
        if (v === String(o.default)) delete chosen[o.name]; else chosen[o.name] = v;
        apply();
      });
      row.appendChild(input);
      if (said) row.appendChild(said);
      form.appendChild(row);
    });
    [nameIn, noteIn].forEach(function (el) { el.addEventListener("input", apply); });
    panel.querySelector(".rk-yt-reset").addEventListener("click", function () {
      chosen = {};
      form.querySelectorAll("[data-option]").forEach(function (el) {
        el.value = data.defaults[el.name];
        el.dispatchEvent(new Event("change"));
      });
      apply();
    });
    panel.querySelector(".rk-yt-print").addEventListener("click", function () {
      apply();
      document.documentElement.classList.add("rk-yt-printing");
      window.print();
    });
    window.addEventListener("afterprint", function () { document.documentElement.classList.remove("rk-yt-printing"); });
    panel.hidden = false;
    apply();
  }

  function init() { document.querySelectorAll(".rk-yourtable").forEach(setup); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);  // Material instant loading
  window.rulekitYourTable = {yamlString: yamlString, houseFile: houseFile};  // for tests and curious readers
})();
