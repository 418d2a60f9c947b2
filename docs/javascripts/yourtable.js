/* "Your table": a game page's options as a small form. Changing one swaps the sentences of the
   rules that name it (pre-generated at build time, see rulekit/website/yourtable.py), marks
   them, and writes the matching house-rule file. Plain JavaScript, no server, works offline;
   without JavaScript the panel stays hidden and the page reads as it always did. */
(function () {
  "use strict";
  var NUMBER = "\u2063N\u2063", BARE = "\u2063B\u2063";

  function words(o, n) {
    var unit = n === 1 ? o.unit[0] : o.unit[1];
    return unit ? n + " " + unit : String(n);
  }

  function textNodes(root) {
    var out = [], walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, null);
    while (walk.nextNode()) {
      var node = walk.currentNode;
      if (!node.parentNode.closest(".rk-yourtable, script, style, .rk-options")) out.push(node);
    }
    return out;
  }

  function setup(panel) {
    if (panel.getAttribute("data-ready")) return;
    panel.setAttribute("data-ready", "1");
    var data = JSON.parse(panel.querySelector(".rk-yt-data").textContent);
    var article = panel.closest("article") || document.body;
    var form = panel.querySelector(".rk-yt-form");
    var yaml = panel.querySelector(".rk-yt-yaml");
    var download = panel.querySelector(".rk-yt-download");
    var chosen = {};

    // the page's own sentences, found once: each text node holding one, with its option
    var spots = [];
    function findSpots() {
      var nodes = textNodes(article);
      Object.keys(data.sentences).forEach(function (name) {
        data.sentences[name].forEach(function (s) {
          nodes.forEach(function (node) {
            var flat = node.nodeValue.replace(/\s+/g, " ");
            var at = flat.indexOf(anchor(s));
            if (at >= 0) spots.push({node: node, name: name, s: s});
          });
        });
      });
    }

    // the text to find on the page: the sentence itself, or (when the page leaves it out, the
    // standard rules saying nothing there) the sentence it goes after or before
    function anchor(s) { return s.page || s.after || s.before; }

    function sentenceFor(o, s, value) {
      if (Object.prototype.hasOwnProperty.call(s.alt, value)) return s.alt[value];
      if (o.type === "int" && s.n) return s.n.split(NUMBER).join(words(o, Number(value))).split(BARE).join(String(value));
      return null;
    }

    function apply() {
      document.querySelectorAll("mark.rk-yt-changed").forEach(function (m) {
        m.replaceWith(document.createTextNode(m.getAttribute("data-page")));
      });
      article.normalize();
      spots = [];
      findSpots();
      spots.forEach(function (spot) {
        var o = data.options.filter(function (x) { return x.name === spot.name; })[0];
        if (!(spot.name in chosen)) return;
        var text = sentenceFor(o, spot.s, chosen[spot.name]);
        if (text === null) return;
        var node = spot.node, flat = node.nodeValue.replace(/\s+/g, " ");
        var key = anchor(spot.s), at = flat.indexOf(key);
        if (at < 0 || !node.parentNode) return;
        if (!spot.s.page && !text) return;  // nothing said either way
        node.nodeValue = flat;
        var mark = document.createElement("mark");
        mark.className = "rk-yt-changed";
        mark.setAttribute("data-page", spot.s.page);
        mark.title = "your house rule";
        if (spot.s.page) {
          var rest = node.splitText(at);
          rest.splitText(spot.s.page.length);
          mark.textContent = text;
          rest.replaceWith(mark);
        } else {  // a sentence of its own, put beside its neighbour; gone again when the page is reset
          var after = !!spot.s.after, tail = node.splitText(after ? at + key.length : at);
          mark.textContent = after ? " " + text : text + " ";
          tail.parentNode.insertBefore(mark, tail);
        }
      });
      var lines = ["# House rules for " + data.name + " (rulekit validate this file; rulekit rules " +
                   data.game + " --house this file)", "name: Our table", "target: " + data.game];
      var keys = Object.keys(chosen);
      if (keys.length) {
        lines.push("options:");
        keys.forEach(function (k) { lines.push("  " + k + ": " + chosen[k]); });
      }
      var text = lines.join("\n") + "\n";
      yaml.textContent = text;
      download.href = "data:text/yaml;charset=utf-8," + encodeURIComponent(text);
    }

    data.options.forEach(function (o) {
      var row = document.createElement("label");
      row.className = "rk-yt-option";
      var name = document.createElement("span");
      name.textContent = o.label + " ";
      row.appendChild(name);
      var input;
      if (o.type === "int") {
        input = document.createElement("input");
        input.type = "number";
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
      input.addEventListener("change", function () {
        var v = input.value;
        if (o.type === "int") {
          var n = Math.round(Number(v));
          if (isNaN(n) || (o.min !== null && n < o.min) || (o.max !== null && n > o.max)) { input.value = o.default; n = Number(o.default); }
          v = String(n);
        }
        if (v === String(o.default)) delete chosen[o.name]; else chosen[o.name] = v;
        apply();
      });
      row.appendChild(input);
      form.appendChild(row);
    });
    panel.querySelector(".rk-yt-reset").addEventListener("click", function () {
      chosen = {};
      form.querySelectorAll("[data-option]").forEach(function (el) {
        var o = data.options.filter(function (x) { return x.name === el.name; })[0];
        el.value = o.default;
      });
      apply();
    });
    panel.querySelector(".rk-yt-print").addEventListener("click", function () { window.print(); });
    panel.hidden = false;
    apply();
  }

  function init() { document.querySelectorAll(".rk-yourtable").forEach(setup); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);  // Material instant loading
})();
