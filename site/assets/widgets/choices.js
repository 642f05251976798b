import { h, T } from "./dom.js";

// Grouped choices: a heading and a word of help per group, the main verbs first, the rest
// folded. Each button shows its number (the key that presses it). A form group offers many
// actions through a few fields (select ▾, stepper − n +) and sends the one they designate.
// A choice with `confirm` asks first, in the page (no browser dialog).

function keyBadge(n) {
  return n <= 9 ? h("kbd", { class: "gb-key", "aria-hidden": "true", text: String(n) }) : null;
}

function button(c, act, ask) {
  const b = h("button", {
    type: "button",
    class: `gb-choice${c.tone ? ` gb-choice-${c.tone}` : ""}`,
    "data-choice": String(c.n),
    "data-key": c.n <= 9 ? String(c.n) : null,
    "aria-keyshortcuts": c.n <= 9 ? String(c.n) : null,
    on: { click: () => (c.confirm ? ask(c.confirm, () => act(c.action)) : act(c.action)) },
  }, keyBadge(c.n), h("span", { class: "gb-choice-label", text: c.label }));
  if (c.help) b.append(h("span", { class: "gb-choice-help", text: c.help }));
  return b;
}

function form(g, act) {
  const box = h("form", { class: "gb-form", on: { submit: (e) => e.preventDefault() } });
  const values = {};
  const controls = {};
  const consistent = (upto) => g.choices.filter((c) =>
    g.fields.slice(0, upto).every((f) => String(c.fields[f.name]) === String(values[f.name])));
  const refresh = (from) => {
    g.fields.forEach((f, i) => {
      if (i < from) return;
      const allowed = [...new Set(consistent(i).map((c) => c.fields[f.name]))];
      if (f.kind === "stepper") {
        const nums = allowed.map(Number).sort((a, b) => a - b);
        const input = controls[f.name];
        input.min = nums[0]; input.max = nums[nums.length - 1];
        if (!nums.includes(Number(values[f.name]))) values[f.name] = nums[0];
        input.value = values[f.name];
      } else {
        const select = controls[f.name];
        const labels = Object.fromEntries((f.options || []).map((o) => [String(o.value), o.label]));
        select.replaceChildren(...allowed.map((v) => h("option", { value: String(v), text: labels[String(v)] || String(v) })));
        if (!allowed.map(String).includes(String(values[f.name]))) values[f.name] = allowed[0];
        select.value = String(values[f.name]);
      }
    });
  };
  g.fields.forEach((f, i) => {
    const id = `gb-f-${g.n}-${f.name}`;
    if (f.kind === "stepper") {
      const input = h("input", { type: "number", id, inputmode: "numeric", class: "gb-stepper-input",
        on: { change: (e) => { values[f.name] = Number(e.target.value); refresh(i + 1); } } });
      const step = (d) => () => {
        const next = Number(input.value) + d;
        if (next >= Number(input.min) && next <= Number(input.max)) { values[f.name] = next; input.value = next; refresh(i + 1); }
      };
      controls[f.name] = input;
      box.append(h("div", { class: "gb-field" }, h("label", { for: id, text: f.label }),
        h("span", { class: "gb-stepper" },
          h("button", { type: "button", class: "gb-step", "aria-label": `${f.label} : ${T.stepperLess}`, text: "−", on: { click: step(-1) } }),
          input,
          h("button", { type: "button", class: "gb-step", "aria-label": `${f.label} : ${T.stepperMore}`, text: "+", on: { click: step(1) } }))));
    } else {
      const select = h("select", { id, on: { change: (e) => { values[f.name] = e.target.value; refresh(i + 1); } } });
      controls[f.name] = select;
      box.append(h("div", { class: "gb-field" }, h("label", { for: id, text: f.label }), select));
    }
  });
  refresh(0);
  const submit = h("button", {
    type: "submit", class: "gb-choice gb-choice-main", "data-choice": String(g.n),
    "data-key": g.n <= 9 ? String(g.n) : null, "aria-keyshortcuts": g.n <= 9 ? String(g.n) : null,
    on: { click: () => { const c = consistent(g.fields.length)[0]; if (c) act(c.action); } },
  }, keyBadge(g.n), h("span", { class: "gb-choice-label", text: g.submit }));
  box.append(submit);
  return box;
}

export function drawChoices(groups, act, ask) {
  const box = h("div", { class: "gb-groups" });
  for (const g of groups) {
    const body = g.kind === "form" ? [form(g, act)] : g.choices.map((c) => button(c, act, ask));
    const help = g.help ? h("p", { class: "gb-group-help", text: g.help }) : null;
    // a seat's own choices show what it alone knows (its hand, its coins)
    const mine = Number.isInteger(g.private) ? String(g.private) : null;
    if (g.folded) {
      box.append(h("details", { class: "gb-group gb-folded", "data-private": mine },
        h("summary", { text: g.heading }), help, h("div", { class: "gb-buttons" }, ...body)));
    } else {
      box.append(h("section", { class: "gb-group", "aria-label": g.heading, "data-private": mine },
        h("h3", { text: g.heading }), help, h("div", { class: "gb-buttons" }, ...body)));
    }
  }
  return box;
}
