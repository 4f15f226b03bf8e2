// printshop preview: follows the build state (Server-Sent Events from /_events) and updates
// the page in place: the HTML edition is reloaded in a second frame and swapped in at the
// same scroll position; PDF pages are images whose sources change, so nothing moves.
// Problems of a failed build are shown over the last good pages until a build succeeds;
// warnings are a badge (on the index, each product's; on a product's page, its own) that
// lists them when clicked. The index shows each product's title, first page and pages.
// The form page (/make) follows the packs and kits it asked for.
(() => {
  "use strict";
  const page = window.__printshopPage || {view: "index"};
  const api = window.__printshop = {build: -1, state: null, shown: {}, swaps: 0,
                                    notes: [], alone: []};
  let view = null;  // the file shown on a product page

  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs = {}, text = null) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== null) node.textContent = text;
    return node;
  };

  function filesOf(state, product) {
    const files = (state.outputs[product] || []).filter((f) => f in state.files);
    const html = product + ".html";
    if (html in state.files && !files.includes(html)) files.unshift(html);
    return files.filter((f) => f.endsWith(".html") || f.endsWith(".pdf"));
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function warningsOf(state, product) {
    const all = state.warnings || {};
    if (product) return all[product] || [];
    return [...new Set(Object.values(all).flat())];
  }

  function showStatus(state) {
    const status = $("#status");
    if (!status) return;
    const problems = state.problems.length;
    const warned = warningsOf(state, page.product).length;
    status.textContent = problems ? plural(problems, "problem")
      : state.building ? "building…"
      : warned ? `up to date, ${plural(warned, "warning")}` : "up to date";
    status.className = problems ? "bad" : state.building ? "busy" : warned ? "warn" : "good";
  }

  // a badge saying how many warnings, which shows (and hides) their list when clicked
  function warningBadge(lines, id) {
    const box = el("span", {class: "warnings-box"});
    if (!lines.length) return box;
    const badge = el("button", {type: "button", class: "badge", "aria-expanded": "false",
                                "aria-controls": id}, plural(lines.length, "warning"));
    const list = el("ul", {class: "warning-list", id, hidden: ""});
    for (const line of lines) list.appendChild(el("li", {}, line));
    badge.addEventListener("click", () => {
      const open = list.hidden;
      list.hidden = !open;
      badge.setAttribute("aria-expanded", String(open));
    });
    box.append(badge, list);
    return box;
  }

  function showWarnings(state) {
    const slot = $("#warnings");
    if (!slot) return;
    const lines = warningsOf(state, page.product);
    const key = lines.join("\n");
    if (slot.dataset.shown === key) return;
    slot.dataset.shown = key;
    const wasOpen = slot.querySelector(".warning-list:not([hidden])") !== null;
    slot.replaceChildren(warningBadge(lines, "warning-list"));
    if (wasOpen && lines.length) slot.querySelector(".badge").click();
  }

  function showProblems(lines) {
    let overlay = $("#printshop-overlay");
    if (!lines.length) {
      if (overlay) overlay.remove();
      return;
    }
    if (!overlay) {
      overlay = el("div", {id: "printshop-overlay", role: "alert"});
      document.body.appendChild(overlay);
    }
    overlay.replaceChildren(el("h2", {}, "The last build failed; showing the last good pages"),
      el("pre", {}, lines.join("\n")));
  }

  function showIndex(state) {
    const list = $("#products");
    if (!list) return;
    const open = new Set([...list.querySelectorAll(".warning-list:not([hidden])")]
      .map((node) => node.id));
    list.replaceChildren(...state.products.map((name) => {
      const item = el("li", {class: "product-card", id: "product-" + name});
      const outputs = (state.outputs[name] || []).filter((f) => f in state.files);
      const pdf = outputs.find((f) => f.endsWith(".pdf"));
      const link = el("a", {class: "product", href: "/preview/" + name});
      const thumb = link.appendChild(el("span", {class: "thumb"}));
      if (pdf) {
        thumb.appendChild(el("img", {alt: `first page of ${pdf}`, loading: "lazy",
                                     src: `/_pages/${pdf}/thumb.png?v=${state.files[pdf]}`}));
      }
      link.appendChild(el("span", {class: "title"}, (state.titles || {})[name] || name));
      item.appendChild(link);
      const facts = el("span", {class: "facts"}, name);
      const pages = pdf && (state.pages || {})[pdf];
      if (pages) facts.appendChild(el("span", {class: "page-count"}, ` · ${plural(pages, "page")}`));
      item.appendChild(facts);
      const files = el("span", {class: "files"});
      for (const f of outputs) {
        const n = (state.pages || {})[f];
        files.appendChild(el("a", {href: "/" + f, title: n ? plural(n, "page") : f}, f));
      }
      item.appendChild(files);
      const id = "warnings-" + name;
      item.appendChild(warningBadge(warningsOf(state, name), id));
      if (open.has(id)) item.querySelector(".badge").click();
      return item;
    }));
  }

  function showJobs(state) {
    const list = $("#jobs");
    if (!list) return;
    list.replaceChildren(...[...(state.jobs || [])].reverse().map((job) => {
      const item = el("li", {id: "job-" + job.id, class: "job " + job.status});
      const what = job.kind === "pack" ? "Pack of characters" : "Convention kit";
      const said = {queued: "waiting…", running: "being made…", done: "ready",
                    failed: "failed"}[job.status];
      item.appendChild(el("strong", {}, `${what}: ${said}`));
      if (job.files.length) {
        const files = el("span", {class: "files"});
        for (const f of job.files) files.appendChild(el("a", {href: "/" + f, download: ""}, f));
        item.appendChild(files);
      }
      if (job.lines.length) item.appendChild(el("pre", {}, job.lines.join("\n")));
      if (job.problems.length) item.appendChild(el("pre", {class: "bad"},
                                                   job.problems.join("\n")));
      return item;
    }));
  }

  function showNav(files) {
    const nav = $("#views");
    const wanted = files.join("|");
    if (nav.dataset.files === wanted) return;
    nav.dataset.files = wanted;
    nav.replaceChildren(...files.map((f) => {
      const link = el("a", {href: "#" + f, class: f === view ? "on" : ""},
        f.endsWith(".html") ? "HTML edition" : f);
      link.addEventListener("click", (event) => {
        event.preventDefault();
        choose(f);
      });
      return link;
    }));
  }

  function choose(file) {
    if (file === view) return;
    view = file;
    history.replaceState(null, "", "#" + file);
    api.shown = {};
    $("#preview").replaceChildren();
    for (const link of document.querySelectorAll("#views a")) {
      link.className = link.getAttribute("href") === "#" + file ? "on" : "";
    }
    if (api.state) update(api.state);
  }

  function showHtml(file, version) {
    const main = $("#preview");
    const old = main.querySelector("iframe.current");
    const frame = el("iframe", {class: old ? "loading" : "current", title: file,
                                src: `/${file}?v=${version}`});
    frame.addEventListener("load", () => {
      if (old) {  // same place in the new text, then swap: no flash, no jump
        const win = old.contentWindow;
        frame.contentWindow.scrollTo(win.scrollX, win.scrollY);
        old.remove();
        frame.className = "current";
        api.swaps += 1;
      }
      document.body.dataset.version = version;
    }, {once: true});
    main.appendChild(frame);
  }

  async function pagesOf(url) {
    const response = await fetch(url);
    return response.ok ? (await response.json()).pages : null;
  }

  // A book's PDF; with `preview` (a saved chapter rendered alone, numbered as in the book),
  // that chapter's pages take the place of its pages in the last whole book until the
  // whole book is rendered again.
  let pdfTicket = 0;  // only the latest call of showPdf shows anything

  async function showPdf(file, version, preview) {
    const ticket = ++pdfTicket;
    const pages = await pagesOf(`/_pages/${file}/index.json?v=${version}`);
    if (!pages || ticket !== pdfTicket) return;
    let shown = pages.map((size, i) => ({size, src: `/_pages/${file}/${i + 1}.png?v=${version}`,
                                          chapter: false}));
    if (preview) {
      const base = `/_pages/_preview/${page.product}.pdf`;
      const alone = await pagesOf(`${base}/index.json?v=${preview.version}`);
      if (alone) {
        const [from, to] = preview.replaces;
        shown = [...shown.slice(0, from - 1),
                 ...alone.map((size, i) => ({size, chapter: true,
                                             src: `${base}/${i + 1}.png?v=${preview.version}`})),
                 ...shown.slice(to)];
      } else preview = null;
    }
    if (ticket !== pdfTicket) return;
    showNote(preview);
    const main = $("#preview");
    let list = main.querySelector(".pages");
    if (!list) list = main.appendChild(el("div", {class: "pages"}));
    while (list.children.length > shown.length) list.lastChild.remove();
    shown.forEach(({size: [width, height], src, chapter}, i) => {
      let img = list.children[i];
      if (!img) img = list.appendChild(el("img", {loading: "lazy", alt: `page ${i + 1}`}));
      img.width = width;
      img.height = height;
      img.id = `page-${i + 1}`;
      img.className = chapter ? "chapter-alone" : "";
      if (img.getAttribute("src") !== src) img.src = src;
    });
    if (preview) api.alone.push(shown.filter((p) => p.chapter).length);
    api.swaps += 1;
    document.body.dataset.version = version;
  }

  function showNote(preview) {
    let note = $("#chapter-note");
    if (!preview) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = el("div", {id: "chapter-note", role: "status"});
      $("#preview").before(note);
    }
    const last = preview.first + preview.pages - 1;
    const text = `Chapter ${preview.number} only (“${preview.title}”, pages ` +
      `${preview.first}–${last}): the whole book is rendering…`;
    note.textContent = text;
    api.notes.push(text);
  }

  function update(state) {
    api.state = state;
    api.build = state.build;
    showStatus(state);
    showProblems(state.problems);
    showWarnings(state);
    if (page.view === "make") return showJobs(state);
    if (page.view === "index") return showIndex(state);
    const files = filesOf(state, page.product);
    if (!files.length) return;
    const hashed = decodeURIComponent(location.hash.slice(1));
    if (view === null || !files.includes(view)) {
      view = files.includes(hashed) ? hashed : files[0];
    }
    showNav(files);
    const version = state.files[view];
    const previews = state.previews || {};
    const preview = previews[page.product] && previews[page.product].file === view
      ? previews[page.product] : null;
    const key = preview ? `${version}|${preview.version}` : version;
    if (api.shown[view] === key) return;
    api.shown[view] = key;
    if (view.endsWith(".html")) showHtml(view, version);
    else showPdf(view, version, preview);
  }

  window.addEventListener("hashchange", () => {
    const wanted = decodeURIComponent(location.hash.slice(1));
    if (api.state && filesOf(api.state, page.product || "").includes(wanted)) choose(wanted);
  });
  const events = new EventSource("/_events");
  events.addEventListener("state", (event) => update(JSON.parse(event.data)));
})();
